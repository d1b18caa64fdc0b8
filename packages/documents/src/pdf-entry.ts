// `@platform/documents/pdf`: what renderers need in the sandbox (PDF drawing, the render task), without the lifecycle's database code.
export * from './pdf.js';
export {
  attachFacturX,
  isPdfA,
  FACTURX_FILE_NAME,
  XRECHNUNG_FILE_NAME,
  facturXFileName,
  FACTURX_NAMESPACE,
  type FacturXConformance,
  type FacturXOptions,
} from './pdfa.js';
export {
  implementRender,
  renderTask,
  type FileReader,
  type RenderJob,
  type RenderTask,
  type Rendered,
} from './render.js';
