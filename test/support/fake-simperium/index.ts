/** The fake Simperium server for tests: start one on a loopback port, stop it afterwards. */
import { FakeSimperium, type FakeSimperiumOptions } from './server.js';

export { FakeSimperium, type FakeSimperiumOptions, type Reply, type RequestRecord } from './server.js';
export { FakeBucket, NOTE_REQUIRED_FIELDS, cvString, type ObjectData } from './bucket.js';
export type { Fault, FaultMatch } from './faults.js';

export async function startFakeSimperium(options: FakeSimperiumOptions = {}): Promise<FakeSimperium> {
  const fake = new FakeSimperium(options);
  await fake.start();
  return fake;
}
