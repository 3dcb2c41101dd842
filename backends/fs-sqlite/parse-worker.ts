/** Parses batches of changed files off the main thread, which meanwhile writes the index. */
import { parentPort } from 'node:worker_threads';
import { parseChangedFile, type ChangedFile } from './parse-file.js';

parentPort?.on('message', (message: { seq: number; files: ChangedFile[] }) => {
  parentPort?.postMessage({ seq: message.seq, parsed: message.files.map(parseChangedFile) });
});
