import { Transform, type TransformCallback } from 'node:stream';

// The backup file: a gzip stream of
//   MAGIC line, the header (one line of JSON),
//   per table of the header, in its order: frames of [uint32 BE length][COPY text data], ended by
//   a frame of length 0,
//   END_MARK.
// gzip's CRC and the end mark tell a complete file from a truncated or damaged one.

/** The first line of every backup file. */
export const BACKUP_MAGIC = 'LIJSTWERK-BACKUP\n';
/** The last bytes of every complete backup file. */
export const BACKUP_END = 'LIJSTWERK-BACKUP-EINDE\n';
/** The version of this layout; a restore refuses any other. */
export const BACKUP_FORMAT_VERSION = 1;

/** One table of a backup: its columns in COPY order, its rows, and how to make it when migrations do not. */
export interface BackupTable {
  /** schema-qualified name, each part as an identifier (e.g. `public.records_ab12`). */
  schema: string;
  name: string;
  columns: string[];
  rows: number;
  /**
   * For a partition: its parent, bound (`FOR VALUES IN ('x')`), and its own constraints
   * (`CONSTRAINT "n" PRIMARY KEY (..)`) and indexes (CREATE INDEX ...) that the parent does not
   * give it, so a restore can make one the migrations do not (a dataset's records table).
   */
  partitionOf?: { schema: string; name: string; bound: string; constraints: string[]; indexes: string[] };
}

/** A sequence owned by a column, with the value it had when the backup was made. */
export interface BackupSequence {
  schema: string;
  name: string;
  table: string;
  column: string;
  value: number;
}

/** The header of a backup file: what it holds, never the column key itself. */
export interface BackupHeader {
  format: typeof BACKUP_FORMAT_VERSION;
  appVersion: string;
  serverVersion: string;
  createdAt: string;
  /** The applied migrations (drizzle's journal: hash and timestamp), oldest first. */
  migrations: { hash: string; createdAt: number }[];
  /** columnKeyFingerprint of the key in use at backup time; null when there was none. */
  keyFingerprint: string | null;
  tables: BackupTable[];
  sequences: BackupSequence[];
}

/**
 * The session settings of a backup's and a restore's transaction: COPY's text of dates, times,
 * intervals and numbers then means the same on both sides, whatever the servers' defaults.
 */
export const COPY_SETTINGS_SQL =
  "SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres'; " +
  "SET LOCAL extra_float_digits = 3; SET LOCAL bytea_output = 'hex'";

/** Quotes a name as a PostgreSQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `schema.name`, both quoted. */
export function qualified(t: { schema: string; name: string }): string {
  return `${ident(t.schema)}.${ident(t.name)}`;
}

const FRAME_BYTES = 256 * 1024;
// The longest frame a restore reads: FrameWriter's are FRAME_BYTES and one COPY chunk (a socket
// read, tens of kB) at most; a longer length is damage, refused before it is read into memory.
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/**
 * Frames a COPY stream: gathers its chunks (a row each) into frames of about 256 kB, each after
 * its length, and ends with the empty frame. Counts the bytes it passed in `bytes`.
 */
export class FrameWriter extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of COPY data framed so far. */
  bytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.parts.push(chunk);
    this.size += chunk.length;
    this.bytes += chunk.length;
    if (this.size >= FRAME_BYTES) this.flushFrame();
    done();
  }

  override _flush(done: TransformCallback): void {
    this.flushFrame();
    this.push(Buffer.alloc(4));
    done();
  }

  private flushFrame(): void {
    if (this.size === 0) return;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(this.size);
    this.push(Buffer.concat([length, ...this.parts], this.size + 4));
    this.parts = [];
    this.size = 0;
  }
}

/** Thrown when a backup file is not one, or is damaged or incomplete. */
export class BackupFileError extends Error {}

/** Reads a backup's decompressed stream piece by piece: exact byte counts, lines, frames. */
export class BackupReader {
  private buffered: Buffer[] = [];
  private size = 0;
  private readonly source: AsyncIterator<Buffer>;

  constructor(
    stream: AsyncIterable<Buffer>,
    private readonly onClose: () => void = () => {},
  ) {
    this.source = stream[Symbol.asyncIterator]();
  }

  /** Stops reading and closes the underlying streams. */
  close(): void {
    void this.source.return?.().catch(() => {});
    this.onClose();
  }

  private async fill(min: number): Promise<boolean> {
    while (this.size < min) {
      const next = await this.source.next();
      if (next.done) return false;
      this.buffered.push(next.value);
      this.size += next.value.length;
    }
    return true;
  }

  private take(n: number): Buffer {
    const all = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered, this.size);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    return out;
  }

  /** Exactly `n` bytes; throws BackupFileError when the file ends first. */
  async read(n: number): Promise<Buffer> {
    if (!(await this.fill(n))) throw new BackupFileError('het bestand houdt halverwege op');
    return this.take(n);
  }

  /** One line without its newline, at most `max` bytes; throws when there is none. */
  async readLine(max: number): Promise<string> {
    for (;;) {
      const joined = Buffer.concat(this.buffered, this.size);
      this.buffered = joined.length > 0 ? [joined] : [];
      const at = joined.indexOf(10);
      if (at >= 0)
        return this.take(at + 1)
          .subarray(0, at)
          .toString('utf8');
      if (this.size > max) throw new BackupFileError('geen Lijstwerk-backup (kopregel ontbreekt)');
      if (!(await this.fill(this.size + 1))) throw new BackupFileError('het bestand houdt halverwege op');
    }
  }

  /** The next frame of a table's data; null at the table's empty end frame. Throws BackupFileError for a length no backup writes. */
  async frame(): Promise<Buffer | null> {
    const length = (await this.read(4)).readUInt32BE(0);
    if (length > MAX_FRAME_BYTES)
      throw new BackupFileError(
        `een blok van ${Math.round(length / 1024 / 1024)} MB, langer dan een backup schrijft`,
      );
    return length === 0 ? null : this.read(length);
  }

  /** Checks that the stream holds nothing more (also lets gunzip verify its checksum). */
  async expectEnd(): Promise<void> {
    if (this.size > 0 || (await this.fill(1))) throw new BackupFileError('er staat meer na het einde');
  }
}

/** Reads and checks the magic line and the header; throws BackupFileError when it is no backup of this format. */
export async function readHeader(reader: BackupReader): Promise<BackupHeader> {
  // A file that is not gzip fails here too (zlib's Z_DATA_ERROR): no backup either.
  const magic = await reader.read(BACKUP_MAGIC.length).catch((err) => {
    if (err instanceof BackupFileError || String(err?.code).startsWith('Z_')) return Buffer.alloc(0);
    throw err;
  });
  if (magic.toString('latin1') !== BACKUP_MAGIC) throw new BackupFileError('geen Lijstwerk-backup');
  let header: BackupHeader;
  try {
    header = JSON.parse(await reader.readLine(64 * 1024 * 1024));
  } catch (err) {
    if (err instanceof BackupFileError) throw err;
    throw new BackupFileError('de kop van de backup is onleesbaar');
  }
  if (header?.format !== BACKUP_FORMAT_VERSION || !Array.isArray(header.tables))
    throw new BackupFileError(`onbekend backupformaat ${String(header?.format)}`);
  return header;
}
