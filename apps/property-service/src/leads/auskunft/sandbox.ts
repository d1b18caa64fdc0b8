// What the sandbox's child processes run of this resource: the Auskunft letter's renderer (pdfkit), nothing of the service.
import { implementRender } from '@platform/documents/pdf';
import { RENDER_AUSKUNFT, renderAuskunftPdf } from './pdf.js';

export const AUSKUNFT_TASK = implementRender(RENDER_AUSKUNFT, renderAuskunftPdf);
