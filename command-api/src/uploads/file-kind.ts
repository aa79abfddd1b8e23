import { open } from 'node:fs/promises';

export type FileKind = { kind: 'image' | 'video'; mime: string; ext: string };

const ascii = (b: Buffer, start: number, s: string) => b.subarray(start, start + s.length).toString('latin1') === s;

/**
 * Recognise a file by its first bytes (never by the client's Content-Type or name).
 * Images: JPEG, PNG, GIF, WebP. Videos: MP4/MOV/3GP (ISO BMFF `ftyp`), WebM/Matroska (EBML),
 * Ogg, AVI.
 */
export function detectKind(head: Buffer): FileKind | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { kind: 'image', mime: 'image/jpeg', ext: 'jpg' };
  }
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { kind: 'image', mime: 'image/png', ext: 'png' };
  }
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return { kind: 'image', mime: 'image/gif', ext: 'gif' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return { kind: 'image', mime: 'image/webp', ext: 'webp' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return { kind: 'video', mime: 'video/x-msvideo', ext: 'avi' };
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    const webm = head.includes(Buffer.from('webm'));
    return webm
      ? { kind: 'video', mime: 'video/webm', ext: 'webm' }
      : { kind: 'video', mime: 'video/x-matroska', ext: 'mkv' };
  }
  if (ascii(head, 0, 'OggS')) return { kind: 'video', mime: 'video/ogg', ext: 'ogv' };
  if (ascii(head, 4, 'ftyp')) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (brand === 'qt  ') return { kind: 'video', mime: 'video/quicktime', ext: 'mov' };
    if (brand.startsWith('3g')) return { kind: 'video', mime: 'video/3gpp', ext: '3gp' };
    // HEIF/AVIF still images share the container
    if (['heic', 'heix', 'mif1', 'avif', 'msf1'].includes(brand)) return undefined;
    return { kind: 'video', mime: 'video/mp4', ext: 'mp4' };
  }
  return undefined;
}

export async function detectFileKind(path: string): Promise<FileKind | undefined> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await fh.read(buf, 0, 64, 0);
    return detectKind(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}
