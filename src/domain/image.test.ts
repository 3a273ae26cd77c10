// Screenshot images judged by their bytes: the three kinds taken with their dimensions, everything else refused with a reason.
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/helpers/errors.js';
import { SVG_WITH_SCRIPT, gifHeader, jpegHeader, png, pngHeader, webpHeader } from '../../test/helpers/images.js';
import { IMAGE_MAX_BYTES, ImageRejectedError, readImage } from './image.js';

describe('readImage', () => {
  it('takes PNG, JPEG and WebP, with the dimensions their headers state', () => {
    expect(readImage(png(3, 2), 'image')).toEqual({ mediaType: 'image/png', width: 3, height: 2 });
    expect(readImage(jpegHeader(640, 480), 'image')).toEqual({ mediaType: 'image/jpeg', width: 640, height: 480 });
    expect(readImage(webpHeader(1280, 800), 'image')).toEqual({ mediaType: 'image/webp', width: 1280, height: 800 });
  });

  it('judges by the bytes, not by what a name would say', () => {
    // a PNG's signature with text after it is not an image, whatever the upload was called
    const e = thrownBy(ImageRejectedError, () => readImage(Buffer.concat([pngHeader(1, 1).subarray(0, 8), Buffer.from('hello')]), 'image'));
    expect(e.data).toEqual({ field: 'image', reason: 'not-an-image' });
  });

  it.each([
    ['an SVG (it can carry script)', SVG_WITH_SCRIPT, 'unsupported'],
    ['a GIF', gifHeader(10, 10), 'unsupported'],
    ['text', Buffer.from('just some text, no image at all'), 'not-an-image'],
    ['nothing', Buffer.alloc(0), 'empty'],
    ['a PNG larger than the limit', Buffer.concat([pngHeader(10, 10), Buffer.alloc(IMAGE_MAX_BYTES)]), 'too-large'],
    ['a PNG of 20000×10 pixels', pngHeader(20_000, 10), 'dimensions'],
    ['a PNG stating no size', pngHeader(0, 0), 'not-an-image'],
  ])('refuses %s, naming the field', (_, bytes, reason) => {
    const e = thrownBy(ImageRejectedError, () => readImage(bytes, 'image'));
    expect(e.code).toBe('ImageRejectedError');
    expect(e.data.field).toBe('image');
    expect(e.data.reason).toBe(reason);
  });
});
