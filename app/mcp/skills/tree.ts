/**
 * The generated skills as the SDK's storage: a record of `<skill>/SKILL.md` and
 * `<skill>/references/*.md` texts, rebuilt from the served vault whenever the catalog starts a
 * walk (its `load()` and every `reload()`), so `catalog.reload()` alone brings it up to date.
 */
import { memorySkillFiles, type SkillFiles } from '@modelcontextprotocol/server/ext/skills';

/** Paths under the skills root → file text. */
export type SkillTree = Record<string, string>;

/**
 * A `SkillFiles` whose root listing first rebuilds the tree. A build that throws fails that
 * load or reload, and the SDK keeps serving the catalog it had (its reload is all or nothing).
 */
export function generatedSkillFiles(build: () => Promise<SkillTree>): SkillFiles {
  const record: Record<string, string> = {};
  const files = memorySkillFiles(record);
  return {
    async list(dir) {
      if (dir === '') {
        const next = await build();
        // memorySkillFiles reads this same object again at the start of each walk.
        for (const key of Object.keys(record)) delete record[key];
        Object.assign(record, next);
      }
      return files.list(dir);
    },
    read: (file) => files.read(file),
  };
}
