import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImagePart } from '@skillopt/contract';
import { createDataInvalidError } from '@skillopt/env-kit';
import type { ImageDetail } from './config.js';

/** The image formats every vision backend here accepts. */
export const PAGE_IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type PageImageMediaType = (typeof PAGE_IMAGE_MEDIA_TYPES)[number];

/** The format of an image file from its first bytes (its name may lie), or undefined. */
export function sniffImageMediaType(bytes: Uint8Array): PageImageMediaType | undefined {
  const startsWith = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (startsWith(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (startsWith(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (startsWith(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

export interface PageImage {
  /** The absolute path read. */
  file: string;
  mediaType: PageImageMediaType;
  byteLength: number;
  bytes: Uint8Array;
  /** `data:<mediaType>;base64,<bytes>` */
  dataUrl: string;
}

/**
 * Reads an item's page image. A missing, unreadable, empty or unrecognised file is the data's fault,
 * not the provider's: a `data-invalid` error naming the item and the path, never a score.
 */
export async function readPageImage(file: string, itemId: string, signal?: AbortSignal): Promise<PageImage> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file, signal === undefined ? {} : { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? (error as Error).message})`;
    throw createDataInvalidError(`docvqa item ${itemId}: the page image ${file} ${why}`, { id: itemId, imagePath: file, code }, error);
  }
  const mediaType = sniffImageMediaType(bytes);
  if (mediaType === undefined) {
    throw createDataInvalidError(`docvqa item ${itemId}: the page image ${file} is ${bytes.length === 0 ? 'empty' : 'not a PNG, JPEG, GIF or WebP file'}`, {
      id: itemId,
      imagePath: file,
    });
  }
  return { file, mediaType, byteLength: bytes.length, bytes, dataUrl: `data:${mediaType};base64,${bytes.toString('base64')}` };
}

/** The contract's image part for a page; `detail` is only sent when it is not `auto`. */
export function pageImagePart(image: PageImage, detail: ImageDetail): ImagePart {
  return { type: 'image', image: image.dataUrl, mediaType: image.mediaType, ...(detail === 'auto' ? {} : { detail }) };
}

function describeSize(image: PageImage): string {
  return image.byteLength < 1024 ? `${image.byteLength} B` : `${(image.byteLength / 1024).toFixed(1)} KB`;
}

/** How a page image appears in the text-only trajectory: its name, format and size, never its bytes. */
export function describePageImage(image: PageImage, detail: ImageDetail): string {
  return `[page image shown to the model: ${path.basename(image.file)} (${image.mediaType}, ${describeSize(image)}, detail ${detail})]`;
}

const FILE_EXTENSIONS: Record<PageImageMediaType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * Where an agent finds the page in its workspace: `page.<extension of its real format>`, a name
 * no item's own file name can clash with and the prompt can state in advance.
 */
export function workspacePageImageName(image: PageImage): string {
  return `page.${FILE_EXTENSIONS[image.mediaType]}`;
}

/** How the page placed in an agent's workspace appears in the trajectory. */
export function describeWorkspacePageImage(image: PageImage): string {
  return `[page image in the agent's workspace: ${workspacePageImageName(image)}, from ${path.basename(image.file)} (${image.mediaType}, ${describeSize(image)})]`;
}
