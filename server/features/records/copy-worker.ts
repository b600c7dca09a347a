// A worker thread of copyPass (copy-pass.ts): maps blocks of COPY text rows with createRowMapper.
import { parentPort, workerData } from 'node:worker_threads';
import { mapBlock } from './copy-text';
import { createRowMapper, type MapSpec } from './row-mappers';

const { spec, encryptionKey, indexKey } = workerData as {
  spec: MapSpec;
  encryptionKey: Uint8Array;
  indexKey: Uint8Array;
};
const mapper = createRowMapper(spec, {
  encryptionKey: Buffer.from(encryptionKey),
  indexKey: Buffer.from(indexKey),
});

parentPort?.on('message', (message: { seq: number; text: string }) => {
  try {
    const { out, side, rows, skipped } = mapBlock(message.text, mapper);
    parentPort?.postMessage({ seq: message.seq, out, side, rows, skipped });
  } catch (err) {
    parentPort?.postMessage({ seq: message.seq, error: (err as Error).message ?? String(err) });
  }
});
