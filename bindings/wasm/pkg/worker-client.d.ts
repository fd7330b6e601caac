import type { CheckOptions, Diagnostic, GenerateOptions, GenerateResult, HandTypesResult } from './index.js';

export interface Timing {
  /** Milliseconds the run took in the worker. */
  ms: number;
  /** Milliseconds to the first output text, null if none. */
  firstOutputMs: number | null;
}

export class DealerWorker {
  /**
   * `url`: the worker module (default: worker.js beside worker-client.js).
   * `loadTimeoutMs` (default 20000): jobs fail if the worker's scripts have not loaded by then.
   */
  constructor(url?: string | URL, options?: { loadTimeoutMs?: number });
  check(script: string, options?: CheckOptions): Promise<Diagnostic[]>;
  generate(
    script: string,
    options?: GenerateOptions,
    handlers?: { onOutput?: (text: string) => void; onProgress?: (text: string) => void },
  ): Promise<GenerateResult & { timing: Timing; doubleDummyWorkers: number }>;
  handTypes(script: string, options?: GenerateOptions): Promise<HandTypesResult>;
  /** Whether running the script with these options solves double dummy (DDS is then loaded in the worker). */
  needsDoubleDummy(script: string, options?: GenerateOptions): Promise<boolean>;
  /** Terminates running jobs (their promises reject with `cancelled: true`). */
  cancel(): void;
  terminate(): void;
}
