// What the console's scripts share through `window`, for their type check (tsconfig.console.json).

/** constants.js (generated from backend-emulator/console/constants.ts; a test keeps them equal). */
interface ConsoleConstants {
  formats: Array<[string, string]>;
  severities: string[];
  osFamilies: string[];
  osFamilyNames: Record<string, string>;
  preferenceWords: Record<string, string>;
  dataFileIdSteps: Array<{ replace: string; flags: string; with: string } | { lowercase: true } | { unlessMatches: string; prefix: string } | { cut: number }>;
}

interface Window {
  GNL_CONSTANTS: ConsoleConstants;
  /** kit.js: the shared helpers. */
  GNL: any;
}
