/** Every migration step the plugin offers, by id. Add a step here; nothing else changes. */
import { agentMemoryV2 } from './agent-memory-v2/index.js';
import type { MigrationStep } from './types.js';

export const MIGRATION_STEPS: readonly MigrationStep[] = [agentMemoryV2];

export function findStep(id: string): MigrationStep | undefined {
  return MIGRATION_STEPS.find((s) => s.id === id);
}

export type { MigrationReport, MigrationStep, StepInput } from './types.js';
