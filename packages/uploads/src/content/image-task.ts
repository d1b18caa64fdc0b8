import { TaskRefusal } from '@platform/sandbox';
import { writeRenditions } from './renditions.js';
import type { DecodedImage, DecodeImageInput } from './tasks.js';

const megapixels = (pixels: number) => `${(pixels / 1_000_000).toFixed(1).replace(/\.0$/, '')} megapixels`;

/**
 * In the sandbox: reads the header (format and size), refuses another format than judged and more
 * pixels than allowed before anything is decoded, then decodes every pixel (a damaged file fails
 * here) into the renditions, orientation applied. libvips through sharp, one thread, no cache.
 */
export async function decodeImage({
  path,
  format,
  maxPixels,
  renditions,
  outDir,
}: DecodeImageInput): Promise<DecodedImage> {
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  sharp.concurrency(1);
  let header;
  try {
    header = await sharp(path, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new TaskRefusal(`The image cannot be read: ${(error as Error).message}.`);
  }
  if (header.format !== format)
    throw new TaskRefusal(
      `The file's structure is ${header.format ?? 'unknown'}, not the ${format} its signature says.`,
    );
  const { width, height } = header;
  if (!width || !height) throw new TaskRefusal('The image has no dimensions.');
  if (width * height > maxPixels) {
    throw new TaskRefusal(
      `The image is ${width} × ${height} pixels (${megapixels(width * height)}); at most ${megapixels(maxPixels)} are accepted.`,
      'limit',
    );
  }
  const turned = (header.orientation ?? 1) >= 5;
  try {
    const source = sharp(path, { limitInputPixels: maxPixels, failOn: 'error', pages: 1 }).rotate();
    const files = await writeRenditions(source, renditions, outDir);
    return { width: turned ? height : width, height: turned ? width : height, renditions: files };
  } catch (error) {
    throw new TaskRefusal(`The image cannot be decoded: ${(error as Error).message.replace(/\s+/g, ' ').trim()}.`);
  }
}
