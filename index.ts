/**
 * google-native-local: Pulumi dynamic resources for two Google Cloud resource kinds, and a
 * local emulator of their REST APIs.
 */
export * from './provider';
export { startEmulator, buildEmulatorApp } from './backend-emulator';
export type { StartEmulatorOptions, RunningEmulator } from './backend-emulator';
export { validate as validateAgainstSchema, validateImportJobArgs } from './schemas';
