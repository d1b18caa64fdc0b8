export { DropError, type Drop, type DropFailureKind, type DropOptions, type TransferProtocol } from './types.js';
export { checkDrop, deliverFile, fetchFile, listDrop, partName } from './drop.js';
