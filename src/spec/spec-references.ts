/**
 * @module Where a spec's `$ref`s may lead. A spec is input like any other, and the checker reads
 * specs from the service it checks: a fetched spec resolves references inside itself only, a
 * local one files below its own folder only, each a regular file of bounded size. Nothing else
 * is opened, so no `$ref` can read a device, wait on a FIFO, or tell whether a file exists.
 */
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOpenedFile } from '../util/read-opened-file.ts';

/** A spec, or a file a local spec refers to, larger than this is refused unread. */
export const MAX_SPEC_BYTES = 64 * 1024 * 1024;

/** A spec fetched from a URL must arrive whole within this long. */
export const SPEC_FETCH_TIMEOUT_MS = 10_000;

/** Whether a spec location is a URL (the target's own `/openapi.json`) rather than a file. */
export function isUrlLocation(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** A reference refused: the message names the `$ref` and why, never the content. */
export class ReferenceRefused extends Error {
  constructor(reference: string, reason: string) {
    super(`$ref ${JSON.stringify(reference)}: ${reason}`);
    this.name = 'ReferenceRefused';
  }
}

/**
 * The resolver json-schema-ref-parser is given in place of its own `file` and `http` ones: it
 * is asked for every external reference, whatever its scheme.
 */
export function referenceResolver(
  specLocation: string,
  onRead?: (reference: string, bytes: Buffer) => void,
) {
  return {
    order: 1,
    canRead: true,
    read: async (file: { url: string }): Promise<Buffer> => {
      const bytes = await readReference(specLocation, file.url);
      onRead?.(file.url, bytes);
      return bytes;
    },
  };
}

/** A file a local spec refers to, read by the same rules as when the spec was loaded. */
export async function readReference(specLocation: string, url: string): Promise<Buffer> {
  if (isUrlLocation(specLocation)) {
    throw new ReferenceRefused(
      url,
      'a spec fetched from a URL resolves only references inside itself (#/…)',
    );
  }
  if (/^[a-z][a-z0-9+.-]+:/i.test(url) && !/^file:/i.test(url)) {
    throw new ReferenceRefused(url, 'a local spec resolves only files below its own folder');
  }
  const folder = dirname(specLocation);
  const path = referencePath(specLocation, url);
  const outside = (root: string, candidate: string) => {
    const step = relative(root, candidate);
    return step === '' || step === '..' || step.startsWith(`..${sep}`) || isAbsolute(step);
  };
  // By name first, so that nothing outside is ever touched; then by what links resolve to.
  if (outside(folder, path)) throw new ReferenceRefused(path, `is not below ${folder}`);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new ReferenceRefused(path, 'names no file below the spec');
  }
  if (outside(await realpath(folder), real)) {
    throw new ReferenceRefused(path, `leads out of ${folder} through a link`);
  }
  return readRegularFile(path, real);
}

/** Where a local spec's reference points in the file system (whether it may be read or not). */
export function referencePath(specLocation: string, url: string): string {
  return resolve(dirname(specLocation), /^file:/i.test(url) ? fileURLToPath(url) : pathOf(url));
}

/**
 * The file system path of a reference as the resolver is given it: percent-encoded as a URL
 * path (`/a%20b/%231/x.yaml` for `/a b/#1/x.yaml`), in one pass, so that an escape written in a
 * file name is undone once. A lone `%` is a `%` of the name.
 */
function pathOf(url: string): string {
  return decodeURIComponent(url.replaceAll(/%(?![0-9A-Fa-f]{2})/g, '%25'));
}

/** A regular file's bytes, up to MAX_SPEC_BYTES; a FIFO is opened without waiting for a writer. */
async function readRegularFile(reference: string, path: string): Promise<Buffer> {
  const read = await readOpenedFile(path, (stats) => {
    if (!stats.isFile()) return 'is not a regular file';
    return stats.size > MAX_SPEC_BYTES
      ? `is larger than ${String(MAX_SPEC_BYTES)} bytes`
      : undefined;
  });
  if (!Buffer.isBuffer(read)) throw new ReferenceRefused(reference, read.refused);
  return read;
}

/**
 * A spec's text from a URL, a redirect refused, refused past MAX_SPEC_BYTES as it arrives (fetch undoes a content
 * coding, so the count is of decoded bytes) or past SPEC_FETCH_TIMEOUT_MS in all.
 */
export async function fetchSpecText(location: string): Promise<string> {
  // A redirect is never followed: it could lead off the origin the user named (docs/security.md).
  const response = await fetch(location, {
    signal: AbortSignal.timeout(SPEC_FETCH_TIMEOUT_MS),
    redirect: 'manual',
  });
  if (response.status >= 300 && response.status < 400) {
    const to = response.headers.get('location') ?? '(no Location)';
    await response.body?.cancel();
    throw new Error(
      `${location} answered ${String(response.status)} to ${JSON.stringify(to)}; redirects are not followed: give the URL it names, if you trust it`,
    );
  }
  if (!response.ok) throw new Error(`${location} answered ${String(response.status)}, not a spec`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_SPEC_BYTES) {
      // Leaving the loop cancels the stream.
      throw new Error(`${location} sent more than ${String(MAX_SPEC_BYTES)} bytes, not a spec`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
