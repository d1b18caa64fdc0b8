export {
  CONTENT_TYPES,
  canonicalType,
  judgeType,
  isImageType,
  type ContentType,
  type TypeEvidence,
} from './content-types.js';
export { ContentInspector, HEAD_BYTES } from './inspect.js';
export {
  receiveUpload,
  safeFilename,
  FILE_FIELD,
  type UploadSpec,
  type ReceivedFile,
  type UploadDeps,
} from './receive.js';
export {
  checkContent,
  type ContentRules,
  type StoredRendition,
  type CheckedContent,
  type ContentDeps,
} from './content/check.js';
export { DECODE_IMAGE, INSPECT_PDF, RENDER_PDF, type RenditionSpec, type PdfLimits } from './content/tasks.js';
export { sendDownload, etagMatches, contentDisposition, type Download } from './download.js';
export { registerMultipart, multipartBody, multipartValidator, downloadResponses } from './routes.js';
export {
  blobTables,
  forgetBlobTables,
  blobInUse,
  claimBlob,
  releaseBlob,
  blobRecords,
  BlobVanishedError,
} from './blob-references-sql.js';
export { attachments, type AttachmentParent, type AttachmentsDefinition, type AttachmentsDeps } from './attachments.js';
export { attachmentRoutes, type AttachmentRoutesOptions, type AttachmentRouteService } from './attachment-routes.js';
