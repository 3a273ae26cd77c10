// Screenshot images: what kind an upload is, judged by its bytes (PNG, JPEG and WebP only), and its dimensions from its header.
import { imageSize } from 'image-size';
import { ValidationError } from './errors.js';

/** The largest screenshot accepted, in bytes. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The longest side accepted, in pixels (a browser shows the image whole; larger is a decompression bomb). */
export const IMAGE_MAX_SIDE = 10_000;

/** The media types a screenshot may have, by the kind image-size names. */
const MEDIA_TYPES: Record<string, ImageMediaType> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/webp';

/** What tms keeps of an accepted image besides its bytes. */
export interface ImageFacts {
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

export type ImageRejection = 'empty' | 'too-large' | 'not-an-image' | 'unsupported' | 'dimensions';

/** An upload refused as a screenshot; `field` is the request field it came in (the API's `attr`). */
export class ImageRejectedError extends ValidationError<{ field: string; reason: ImageRejection; kind?: string }> {}

/**
 * The kind and size of a screenshot upload, read from its bytes (never from its name or declared type): PNG, JPEG or
 * WebP, at most IMAGE_MAX_BYTES and IMAGE_MAX_SIDE on each side. Anything else (SVG, which can carry script, GIF,
 * text, a truncated header) throws ImageRejectedError naming `field`.
 * @example readImage(bytes, 'image') // { mediaType: 'image/png', width: 1280, height: 800 }
 */
export function readImage(bytes: Uint8Array, field: string): ImageFacts {
  const reject = (reason: ImageRejection, message: string, kind?: string): never => {
    throw new ImageRejectedError(message, { field, reason, ...(kind ? { kind } : {}) });
  };
  if (bytes.length === 0) reject('empty', 'The submitted file is empty.');
  if (bytes.length > IMAGE_MAX_BYTES) reject('too-large', `The image is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MiB.`);
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return reject('not-an-image', 'Upload a valid image: the file is not an image or it is corrupted.');
  }
  const mediaType = MEDIA_TYPES[size.type ?? ''];
  if (!mediaType) return reject('unsupported', `Unsupported image type: ${size.type ?? 'unknown'}; upload PNG, JPEG or WebP.`, size.type);
  const { width = 0, height = 0 } = size;
  if (width < 1 || height < 1) reject('not-an-image', 'Upload a valid image: its header states no size.');
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) {
    reject('dimensions', `The image is ${width}×${height} pixels; scale it down or crop it to at most ${IMAGE_MAX_SIDE} on each side.`);
  }
  return { mediaType, width, height };
}
