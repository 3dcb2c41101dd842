/** Offset → 1-based line and column, by binary search over the line starts (computed once). */
import type { Position } from './types.js';

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  line(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  lineStart(line: number): number {
    return this.starts[line - 1] as number;
  }

  position(start: number, end: number): Position {
    const line = this.line(start);
    return { line, column: start - (this.starts[line - 1] as number) + 1, start, end };
  }
}
