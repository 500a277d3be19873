export interface UserCodeRequest {
  readonly id: number;
  /** Absolute path of the user's module. */
  readonly module: string;
  /** The export to call, in order of preference (`judge`, then `default`). */
  readonly exports: readonly string[];
  /** How the function is named in messages (`judge(trajectory, testCase)`). */
  readonly signature: string;
  /** Plain data, passed as the function's arguments. */
  readonly args: readonly unknown[];
}

export type UserCodeResponse =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };
