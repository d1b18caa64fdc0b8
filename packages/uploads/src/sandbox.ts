// The upload tasks as the sandbox's entry serves them (`@platform/uploads/sandbox`): decoders load here only.
import { implement, type TaskHandler } from '@platform/sandbox';
import { decodeImage } from './content/image-task.js';
import { inspectPdf, renderPdf } from './content/pdf-task.js';
import { DECODE_IMAGE, INSPECT_PDF, RENDER_PDF } from './content/tasks.js';

export const UPLOAD_TASKS: readonly TaskHandler[] = [
  implement(DECODE_IMAGE, decodeImage),
  implement(INSPECT_PDF, inspectPdf),
  implement(RENDER_PDF, renderPdf),
];
