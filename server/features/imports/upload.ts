import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-errors';
import { currentUser } from '../../plugins/auth';
import { ImportMessages } from './import.service';
import { type StagedUpload, stageUpload } from './upload.service';

/**
 * Reads a multipart upload: the one file part is streamed into a staging table as it arrives;
 * text fields before and after it are collected. Returns the staged file and the fields.
 * Throws HttpError 400 without a file, for a non-.csv name, or for a bad file.
 */
export async function receiveMultipartCsv(
  ctx: AppContext,
  request: FastifyRequest,
  meta: { type: 'import' | 'deleteall'; partnerId: string; datasetName: string },
): Promise<{ staged: StagedUpload; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new HttpError(400, ImportMessages.noFile);
  const fields: Record<string, string> = {};
  let staged: StagedUpload | undefined;
  let refused: HttpError | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (staged || refused || !part.filename.toLowerCase().endsWith('.csv')) {
        refused ??= new HttpError(
          400,
          staged ? 'Er kan maar één bestand tegelijk worden geüpload' : ImportMessages.onlyCsv,
        );
        part.file.resume();
        continue;
      }
      staged = await stageUpload(ctx, {
        ...meta,
        file: part.file,
        fileName: part.filename,
        expectedBytes: Number(request.headers['content-length'] ?? 0),
        username: currentUser(request).username,
      });
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // A broken or aborted multipart body.
    throw new HttpError(400, 'Het bestand kon niet worden ontvangen');
  }
  if (refused) throw refused;
  if (!staged) throw new HttpError(400, ImportMessages.noFile);
  return { staged, fields };
}
