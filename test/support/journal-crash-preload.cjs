/**
 * Loaded with `node --require` into a `serve` the journal crash test kills on purpose. With
 * NOTEKERNEL_TEST_DIE_AFTER_STEPS=k the process kills itself (SIGKILL, no clean-up) at a point
 * of a journalled operation, seen from the journal's own files: 0, right after the plan is
 * durable; k, once step k's outcome is recorded; `end`, after every step, before the entry is
 * closed. Production code carries no hook for it: this watches the file calls it makes.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { syncBuiltinESMExports } = require('node:module');

const setting = process.env.NOTEKERNEL_TEST_DIE_AFTER_STEPS;
const dieAt = setting === 'end' ? Number.POSITIVE_INFINITY : Number(setting);
const die = () => process.kill(process.pid, 'SIGKILL');
const inJournal = (file) => path.basename(path.dirname(String(file))) === 'journal';
const plansWritten = new Map();
let stepsRecorded = 0;

const renameSync = fs.renameSync;
fs.renameSync = function (from, to) {
  const planFile = inJournal(to) && String(to).endsWith('.json');
  const times = planFile ? (plansWritten.get(String(to)) ?? 0) + 1 : 0;
  if (planFile) plansWritten.set(String(to), times);
  // The second write of a plan file closes its entry.
  if (times === 2 && dieAt === Number.POSITIVE_INFINITY) die();
  const result = renameSync.apply(this, arguments);
  if (times === 1 && dieAt === 0) die();
  return result;
};

const appendFileSync = fs.appendFileSync;
fs.appendFileSync = function (file) {
  const result = appendFileSync.apply(this, arguments);
  if (inJournal(file) && String(file).endsWith('.log') && ++stepsRecorded === dieAt) die();
  return result;
};

syncBuiltinESMExports();
