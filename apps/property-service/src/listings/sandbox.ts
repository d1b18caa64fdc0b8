// What the sandbox's child processes run of this resource: the exposé's renderer (pdfkit), nothing of the service.
import { implementRender } from '@platform/documents/pdf';
import { RENDER_EXPOSE, renderExpose } from './expose.js';

export const EXPOSE_TASK = implementRender(RENDER_EXPOSE, renderExpose);
