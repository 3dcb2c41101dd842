/** Thrown by a command to end the process with a specific exit code after its own output. */
export class ExitCode extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
