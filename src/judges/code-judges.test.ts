import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sequence } from '../../test/support/trajectory.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { scoreTrajectory } from '../scoring/trajectory/score-trajectory.js';
import { createCodeJudges, type CodeJudges } from './code-judges.js';

const open: CodeJudges[] = [];
afterEach(async () => {
  for (const judges of open.splice(0)) await judges.close();
});

function judgesWith(files: Record<string, string>): { judges: CodeJudges; folder: string } {
  const folder = temporaryFolder();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const judges = createCodeJudges({ baseDir: folder, defaultTimeoutMs: 2000 });
  open.push(judges);
  return { judges, folder };
}

const run = sequence(['search', { q: 'refund' }], ['issue_refund', { amount: 20 }]);

describe('code judges', () => {
  it('run judge(trajectory, testCase) from a module next to the suite, default export too', async () => {
    const { judges } = judgesWith({
      'refund-policy.mjs':
        'export function judge(trajectory, testCase) { const refunds = trajectory.calls.filter((c) => c.name === "issue_refund"); return { pass: refunds.every((c) => c.arguments.value.amount <= testCase.limit), reason: `${refunds.length} refund(s)` }; }',
      'async-default.js':
        'export default async function (trajectory) { await new Promise((r) => setTimeout(r, 5)); return { pass: false, score: 0.5, reason: `final: ${trajectory.finalText || "none"}` }; }',
    });
    const options = { judges: { code: judges.run } };
    expect(
      await scoreTrajectory({ limit: 50, judge: { code: './refund-policy.mjs' } }, run, options),
    ).toMatchObject({
      pass: true,
      checks: [{ check: 'judge', status: 'pass', details: { reason: '1 refund(s)' } }],
    });
    expect(
      await scoreTrajectory({ limit: 10, judge: { code: './refund-policy.mjs' } }, run, options),
    ).toMatchObject({ pass: false, reasons: ['judge_failed'] });
    expect(
      await scoreTrajectory({ judge: { code: './async-default.js' } }, run, options),
    ).toMatchObject({
      pass: false,
      score: 0.5,
      checks: [{ message: 'code judge ./async-default.js: final: none' }],
    });
  });

  it('fail the check, not the run, on a throw, a missing export or a module that cannot load', async () => {
    const { judges, folder } = judgesWith({
      'throws.mjs': 'export function judge() { throw new Error("policy table missing"); }',
      'empty.mjs': 'export const x = 1;',
      'typed.ts': 'export function judge(t: unknown) { return { pass: true }; }',
    });
    const score = (code: string) =>
      scoreTrajectory({ expect: { calls: ['search'] }, judge: { code } }, run, {
        judges: { code: judges.run },
      });
    const thrown = await score('./throws.mjs');
    expect(thrown).toMatchObject({
      status: 'fail',
      reasons: ['judge_error'],
      checks: [
        { status: 'pass' },
        { status: 'fail', message: 'code judge ./throws.mjs: policy table missing' },
      ],
    });
    expect((await score('./empty.mjs')).checks[1]?.message).toBe(
      `code judge ./empty.mjs: ${join(folder, 'empty.mjs')} exports no judge function (export function judge(trajectory, testCase) { … })`,
    );
    expect((await score('./missing.mjs')).checks[1]?.message).toMatch(
      /^code judge \.\/missing\.mjs: cannot load .*missing\.mjs: Cannot find module/,
    );
    expect((await score('./typed.ts')).checks[1]?.message).toMatch(
      /Unknown file extension "\.ts".*needs a TypeScript loader/,
    );
  });

  it('time out a judge stuck in a loop by ending its thread, and keep judging after', async () => {
    const { judges } = judgesWith({
      'loops.mjs': 'export function judge() { for (;;) {} }',
      'fine.mjs': 'export function judge() { return { pass: true }; }',
    });
    const options = { judges: { code: judges.run } };
    const stuck = await scoreTrajectory(
      { judge: { code: './loops.mjs', timeout_ms: 200 } },
      run,
      options,
    );
    expect(stuck).toMatchObject({
      status: 'fail',
      reasons: ['judge_error'],
      checks: [{ message: 'code judge ./loops.mjs: timed out after 200 ms' }],
    });
    expect((await scoreTrajectory({ judge: { code: './fine.mjs' } }, run, options)).pass).toBe(
      true,
    );
  });

  it('reject an answer that is not plain data or not a verdict', async () => {
    const { judges } = judgesWith({
      'fn.mjs': 'export function judge() { return { pass: true, later: () => 1 }; }',
      'word.mjs': 'export function judge() { return "pass"; }',
    });
    const options = { judges: { code: judges.run } };
    expect(
      (await scoreTrajectory({ judge: { code: './fn.mjs' } }, run, options)).checks[0]?.message,
    ).toMatch(/^code judge \.\/fn\.mjs: answered something that is not plain data/);
    expect(
      (await scoreTrajectory({ judge: { code: './word.mjs' } }, run, options)).checks[0]?.message,
    ).toBe('code judge ./word.mjs: answered "pass", not { pass: boolean, score?, reason? }');
  });
});
