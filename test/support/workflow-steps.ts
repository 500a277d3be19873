import { parse } from 'yaml';

/** A step of a GitHub Actions job as the test runs it. */
export interface WorkflowStep {
  readonly id?: string;
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** A job of a workflow file: its environment and steps. */
export interface WorkflowJob {
  readonly env?: Readonly<Record<string, string>>;
  readonly steps: readonly WorkflowStep[];
}

/** The named job of a workflow file's text. */
export function workflowJob(text: string, job: string): WorkflowJob {
  const workflow = parse(text) as { jobs?: Record<string, WorkflowJob> };
  const found = workflow.jobs && Object.hasOwn(workflow.jobs, job) ? workflow.jobs[job] : undefined;
  if (!found) throw new Error(`the workflow has no job ${job}`);
  return found;
}
