import { join } from 'node:path';
import type { Sharp } from 'sharp';
import type { RenditionFile, RenditionSpec } from './tasks.js';

/**
 * Writes each rendition from decoded pixels: the first from `source` (the decoder's pipeline, with
 * the orientation applied), each further one from the previous file (smaller, already decoded).
 * A rendition is a new JPEG in sRGB over white: it carries no EXIF, XMP, IPTC, ICC profile,
 * comment or trailing data of the original, because nothing of the original but pixels reaches it.
 */
export async function writeRenditions(
  source: Sharp,
  specs: readonly RenditionSpec[],
  outDir: string,
): Promise<RenditionFile[]> {
  const { default: sharp } = await import('sharp');
  const ordered = [...specs].sort((a, b) => b.longEdge - a.longEdge);
  const files: RenditionFile[] = [];
  let from: Sharp = source;
  for (const spec of ordered) {
    const file = `${spec.variant}.jpg`;
    const info = await from
      .resize({ width: spec.longEdge, height: spec.longEdge, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: spec.quality, progressive: false, chromaSubsampling: '4:2:0' })
      .toFile(join(outDir, file));
    files.push({ variant: spec.variant, file, width: info.width, height: info.height });
    from = sharp(join(outDir, file), { failOn: 'error' });
  }
  return files;
}
