/**
 * A crash point for the journal's kill -9 tests: with `NOTEKERNEL_TEST_DIE_AFTER_STEPS=k` in the
 * environment, a journalled operation kills its own process (SIGKILL, no clean-up) once step k
 * has been applied (0: right after the plan is written; `end`: after every step, before the
 * entry is closed). Unset — always, outside those tests — it does nothing.
 */
const setting = process.env.NOTEKERNEL_TEST_DIE_AFTER_STEPS;
const dieAt = setting === undefined ? undefined : setting === 'end' ? Number.POSITIVE_INFINITY : Number(setting);

export function testCrashPoint(step: number): void {
  if (dieAt !== undefined && step === dieAt) process.kill(process.pid, 'SIGKILL');
}
