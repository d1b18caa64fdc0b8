export { DOCUMENT_NAMES, loadDocument, type DocumentName, type OpenApiDocument } from './documents.js';
export { OperationIndex, type Operation } from './operations.js';
export { ResponseValidator, type WireResponse } from './response-validator.js';
export { ContractRecorder, type RecordedResponse } from './contract-recorder.js';
export { exerciseGenericErrors, concretePath, unexpected, type GenericErrorResult } from './generic-errors.js';
export { checkWebhookPayloads, type EventType, type PayloadCheck } from './webhook-payloads.js';
export { exerciseReads, type ReadResult } from './read-only.js';
