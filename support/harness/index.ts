/** The provider test harness: the real dynamic-provider host over gRPC. See README.md. */
export * from './provider-host';
export * from './program';
export * from './lifecycle';
export * from './engine';
export * from './example-program';
