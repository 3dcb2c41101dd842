/**
 * `notekernel doctor`: checks what a first run trips over and says what to do — Node and the
 * native SQLite addon, the config file (found where), the vault folder, lock files left by
 * processes that died, and the vault opened for real: every warning the opening logs (an
 * unreadable index rebuilt, files skipped and why) and broken links when the profile has them.
 * It knows no backend by name: it reads the kernel's own lock format and what the opening says.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Command } from 'commander';
import { pino } from 'pino';
import { loadUserConfig } from '../../config/load.js';
import { createKernel } from '../../create-kernel.js';
import { toNotekernelError, type ErrorCode } from '../../../kernel/errors.js';
import { operationJournal, type JournalEntry } from '../../../toolkit/plans/journal.js';
import { refreshStore } from '../../../kernel/note-store.js';
import { isAlive } from '../../../toolkit/files/file-lock.js';
import { ExitCode } from '../exit-code.js';
import { expandHome, withCommonOptions, type CommonOptions } from '../open.js';
import { emit, withJsonOption } from '../output/print.js';
import type { Style } from '../output/ansi-style.js';
import { groupSkipped } from '../../../toolkit/files/skip-summary.js';
import { postgresFindings } from './doctor-postgres.js';

interface Finding {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

export function addDoctorCommand(program: Command): void {
  withJsonOption(
    withCommonOptions(
      program.command('doctor').description('check the vault, its index and the install, and say what to do'),
    ),
  ).action(async (options: CommonOptions & { json?: boolean }) => {
    const findings = await diagnose(options);
    emit(options, { ok: findings.every((f) => f.ok), findings }, renderFindings);
    if (!findings.every((f) => f.ok)) throw new ExitCode(1);
  });
}

async function diagnose(options: CommonOptions): Promise<Finding[]> {
  const vault = path.resolve(expandHome(options.vault ?? '.'));
  const findings: Finding[] = [nodeVersion(), nativeAddon()];
  findings.push(await configFile(options, vault));
  findings.push(...(await postgresFindings(options, vault)));
  if (!fs.existsSync(vault)) {
    findings.push({
      check: 'vault',
      ok: false,
      detail: `${vault} does not exist`,
      fix: `notekernel init ${vault} (or notekernel serve, which creates it)`,
    });
    return findings;
  }
  findings.push({ check: 'vault', ok: true, detail: vault }, ...staleLocks(vault));
  findings.push(...(await openAndInspect(options, vault)));
  return findings;
}

function nodeVersion(): Finding {
  const major = Number.parseInt(process.versions.node, 10);
  return {
    check: 'node',
    ok: major >= 20,
    detail: `Node ${process.versions.node}`,
    ...(major >= 20 ? {} : { fix: 'install Node 20 or newer' }),
  };
}

function nativeAddon(): Finding {
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    return { check: 'sqlite', ok: true, detail: 'better-sqlite3 loads' };
  } catch (err) {
    return {
      check: 'sqlite',
      ok: false,
      detail: `better-sqlite3 does not load: ${(err as Error).message.split('\n')[0]}`,
      fix: 'npm rebuild better-sqlite3 (it needs a C++ toolchain when no prebuilt binary fits this Node)',
    };
  }
}

async function configFile(options: CommonOptions, vault: string): Promise<Finding> {
  try {
    const loaded = await loadUserConfig(
      options.config ? { configPath: options.config } : { searchFrom: [vault, process.cwd()] },
    );
    return {
      check: 'config',
      ok: true,
      detail: loaded.filepath ? `found ${loaded.filepath}` : "no config file: the profile's defaults apply",
    };
  } catch (err) {
    return {
      check: 'config',
      ok: false,
      detail: toNotekernelError(err).message,
      fix: 'fix the file named above (or pass --config with another one)',
    };
  }
}

/** The kernel's lock files (`owner-<pid>-…` holding "<pid> <time>") whose process is gone. */
function staleLocks(vault: string): Finding[] {
  const dead: string[] = [];
  for (const hidden of fs.readdirSync(vault).filter((name) => name.startsWith('.'))) {
    const dir = path.join(vault, hidden, 'locks');
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
    for (const name of fs.readdirSync(dir).filter((n) => n.startsWith('owner-'))) {
      const pid = Number.parseInt(name.slice('owner-'.length), 10);
      if (pid && !isAlive(pid)) dead.push(path.join(dir, name));
    }
  }
  if (!dead.length) return [{ check: 'locks', ok: true, detail: 'no lock left by a process that died' }];
  return [
    {
      check: 'locks',
      ok: false,
      detail: `${dead.length} lock owner file(s) of processes that are no longer running: ${dead.join(', ')}`,
      fix: 'nothing is lost: the next write breaks these locks by itself; to tidy now, delete the locks folder while no notekernel runs on this vault',
    },
  ];
}

async function openAndInspect(options: CommonOptions, vault: string): Promise<Finding[]> {
  const warnings: Array<{ msg: string; file?: string; source?: string }> = [];
  // The opening's summary of skipped files is the `skipped` finding already.
  const logger = pino(
    { level: 'warn' },
    {
      write: (line: string) => {
        const record = JSON.parse(line) as { msg: string; file?: string; skippedFiles?: number; source?: string };
        // Faults (a `source`) have findings of their own, below.
        if (record.skippedFiles === undefined && record.source === undefined) warnings.push(record);
      },
    },
  );
  const findings: Finding[] = [];
  let kernel;
  try {
    kernel = await createKernel({
      ...(options.profile ? { profile: options.profile } : {}),
      ...(options.config ? { configPath: options.config } : { searchFrom: [vault, process.cwd()] }),
      logger,
    });
    const open = await kernel.openVault(vault);
    const report = await refreshStore(open.notes.store);
    findings.push({
      check: 'index',
      ok: true,
      detail: `${report.scanned} file(s) seen, ${report.indexed} re-read (profile ${open.info.profile})`,
    });
    if (report.skipped.length) {
      const groups = groupSkipped(report.skipped).map((g) => `${g.count} ${g.reason} (e.g. ${g.examples.join(', ')})`);
      findings.push({
        check: 'skipped',
        ok: false,
        detail: `${report.skipped.length} file(s) not read as notes: ${groups.join('; ')}`,
        fix: 'these files are not notes for this profile: move them, or choose the profile that reads them (notekernel index --vault <dir> lists them)',
      });
    }
    if (open.info.readOnlyReason)
      findings.push({ check: 'access', ok: true, detail: `served read-only: ${open.info.readOnlyReason}` });
    for (const fault of open.faults()) {
      findings.push({
        check: 'fault',
        ok: false,
        detail: `${fault.source}: ${fault.code}: ${fault.message} ${fault.consequence}`,
        fix: FAULT_FIXES[fault.code] ?? 'see the message, then run doctor again',
      });
    }
    const journal = operationJournal(open.notes.store);
    if (journal) findings.push(journalFinding(await journal.list()));
    if (open.hasTool('find_broken_links')) {
      const broken = (await open.call('find_broken_links', {})) as { count?: number };
      const count = broken.count ?? 0;
      findings.push({
        check: 'links',
        ok: count === 0,
        detail: `${count} broken link(s)`,
        ...(count
          ? {
              fix: 'notekernel call find_broken_links --vault <dir> lists them; create the missing notes or fix the links',
            }
          : {}),
      });
    }
  } catch (err) {
    const error = toNotekernelError(err);
    findings.push({
      check: 'open',
      ok: false,
      detail: `${error.code}: ${error.message}`,
      fix: 'see the message; notekernel index --vault <dir> rebuilds an index from the files',
    });
  } finally {
    await kernel?.close();
  }
  // The journal's recoveries have their own finding.
  for (const w of warnings.filter((x) => !x.msg.startsWith('journal:')))
    findings.push({
      check: 'warning',
      ok: false,
      detail: `${w.msg}${w.file ? ` (${w.file})` : ''}`,
      fix: 'handled while opening: run doctor again to see whether it comes back',
    });
  return findings;
}

const FAULT_FIXES: Partial<Record<ErrorCode, string>> = {
  no_space: 'free space on the disk that holds the vault (or raise the quota), then run doctor again',
  permission_denied: 'give this user read and write access to the file or folder named (chown / chmod)',
  read_only: 'make the file named writable, or serve the vault with --read-only on purpose',
};

function renderFindings(report: { ok: boolean; findings: Finding[] }, style: Style): string {
  const lines = report.findings.map(
    (f) =>
      `${f.ok ? style.green('ok  ') : style.red('FAIL')} ${f.check}: ${f.detail}${f.fix ? `\n     → ${f.fix}` : ''}`,
  );
  const failed = report.findings.filter((f) => !f.ok).length;
  lines.push('', report.ok ? style.green('nothing to fix') : style.red(`${failed} problem(s) found; see the → lines`));
  return lines.join('\n');
}

/** Multi-note operations a crash interrupted, and how the opening finished them (decision 025). */
function journalFinding(entries: readonly JournalEntry[]): Finding {
  const recovered = entries.filter((e) => e.recovery);
  const open = entries.filter((e) => e.state === 'pending');
  const problems = recovered.flatMap((e) => (e.recovery?.problems ?? []).map((p) => `${e.operation} ${e.id}: ${p}`));
  const summary = recovered
    .slice(0, 5)
    .map((e) => `${e.operation} (${e.steps.length} notes, planned ${e.at}) ${e.recovery?.outcome} at ${e.recovery?.at}`)
    .join('; ');
  const detail = `${entries.length} operation(s) journalled; ${recovered.length} interrupted by a crash and recovered${summary ? `: ${summary}` : ''}`;
  if (open.length)
    return {
      check: 'journal',
      ok: false,
      detail: `${detail}; ${open.length} still open`,
      fix: 'open the vault writable (notekernel serve or call) to finish them',
    };
  if (problems.length)
    return {
      check: 'journal',
      ok: false,
      detail: `${detail}; notes left as they were: ${problems.join('; ')}`,
      fix: 'those notes were changed by someone else mid-operation: check them by hand',
    };
  return { check: 'journal', ok: true, detail };
}
