import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ERROR_CODES, ProviderError, type ImagePart } from '@skillopt/contract';
import { ANTHROPIC_PROVIDER } from './provider.js';

/** The image formats the Messages API accepts as base64. */
const SUPPORTED_IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type SupportedMediaType = (typeof SUPPORTED_IMAGE_MEDIA_TYPES)[number];

function isSupported(mediaType: string): mediaType is SupportedMediaType {
  return (SUPPORTED_IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType);
}

// The first bytes of each format, as they look in base64.
const BASE64_SIGNATURES: ReadonlyArray<[string, SupportedMediaType]> = [
  ['/9j/', 'image/jpeg'],
  ['iVBORw0KGgo', 'image/png'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

function unsupportedImage(message: string): ProviderError {
  return new ProviderError({ code: ERROR_CODES.providerBadRequest, provider: ANTHROPIC_PROVIDER, retryable: false, message });
}

function base64Block(data: string, declared: string | undefined): ImageBlockParam {
  const mediaType = (declared?.toLowerCase().trim() || BASE64_SIGNATURES.find(([prefix]) => data.startsWith(prefix))?.[1]) ?? '';
  if (mediaType === '') throw unsupportedImage('an image given as bare base64 needs a mediaType (image/jpeg, image/png, image/gif or image/webp)');
  const normalized = mediaType === 'image/jpg' ? 'image/jpeg' : mediaType;
  if (!isSupported(normalized)) throw unsupportedImage(`Anthropic accepts images as ${SUPPORTED_IMAGE_MEDIA_TYPES.join(', ')}; got ${mediaType}`);
  return { type: 'image', source: { type: 'base64', media_type: normalized, data } };
}

/**
 * The contract's image part as an Anthropic image block: an https:/http: URL becomes a `url`
 * source (Anthropic fetches it), a data: URL or bare base64 a `base64` source. `detail` has no
 * Anthropic counterpart and is dropped.
 */
export function imageBlockOf(part: ImagePart): ImageBlockParam {
  const image = part.image.trim();
  if (/^https?:\/\//i.test(image)) return { type: 'image', source: { type: 'url', url: image } };
  const dataUrl = /^data:([^;,]+)?(;[^,]*)?,(.*)$/is.exec(image);
  if (dataUrl) {
    if (!/;base64/i.test(dataUrl[2] ?? '')) throw unsupportedImage('an image data: URL must be base64-encoded (data:image/png;base64,…)');
    return base64Block((dataUrl[3] ?? '').replace(/\s+/g, ''), dataUrl[1] ?? part.mediaType);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(image) && !/^[A-Za-z0-9+/]+=*$/.test(image))
    throw unsupportedImage(`an image must be an https: or data: URL or base64; got a ${image.split(':')[0]}: URL`);
  return base64Block(image.replace(/\s+/g, ''), part.mediaType);
}
