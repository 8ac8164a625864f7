import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

/** What a multipart request of text fields then one `file` part carried. */
export interface SingleUpload {
  fields: Record<string, string>;
  file: { name: string; bytes: Buffer };
}

/**
 * Reads a multipart body of named text fields followed by exactly one part named `file`, every
 * part to its end (so a request that is refused is still consumed cleanly). Null when the body is
 * not of that shape: a field after the file, a repeated field, a second file, no file.
 * The file is read up to one byte over `maxBytes` (the largest the caller accepts; the plugin's
 * limit when not given): a truncated file is then over every limit and the caller's checks report
 * it as too large.
 */
export async function readSingleUpload(request: FastifyRequest, maxBytes?: number): Promise<SingleUpload | null> {
  const fields: Record<string, string> = {};
  let file: SingleUpload['file'] | undefined;
  let malformed = false;
  // (The plugin reads throwFileSizeLimit per call too; its types list it only for file().)
  const options = {
    throwFileSizeLimit: false,
    ...(maxBytes !== undefined ? { limits: { fileSize: maxBytes + 1, files: 1, fields: 5 } } : {}),
  } as FastifyMultipartBaseOptions as Parameters<typeof request.parts>[0];
  for await (const part of request.parts(options)) {
    if (part.type === 'field') {
      if (file !== undefined || Object.hasOwn(fields, part.fieldname)) malformed = true;
      else fields[part.fieldname] = String(part.value);
      continue;
    }
    const bytes = await part.toBuffer();
    if (part.fieldname !== 'file' || file !== undefined) malformed = true;
    else file = { name: part.filename, bytes };
  }
  return malformed || !file ? null : { fields, file };
}
