// What the sandbox's child processes run of this resource: the catalog record's renderer (pdfkit), nothing of the service.
import { implementRender } from '@platform/documents/pdf';
import { RENDER_CATALOG_RECORD, renderCatalogRecord } from './record.js';

export const CATALOG_RECORD_TASK = implementRender(RENDER_CATALOG_RECORD, renderCatalogRecord);
