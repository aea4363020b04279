/**
 * Builds the `ResourceProvider` objects that Pulumi serialises into every resource's state.
 *
 * Each method reaches its implementation with a run-time `require` of the installed package,
 * which the dynamic-provider host resolves from the program's folder. So the serialised text
 * holds only a module path (a few hundred bytes), never sockets, stores or caches, and
 * TypeScript and JavaScript programs serialise the same way.
 */
import type * as pulumi from '@pulumi/pulumi';

/** What an implementation module (e.g. `iam-binding-impl.ts`) exports. */
export interface ProviderImpl {
  check(olds: any, news: any): pulumi.dynamic.CheckResult | Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: any, news: any): pulumi.dynamic.DiffResult | Promise<pulumi.dynamic.DiffResult>;
  create(inputs: any): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: any): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: any, news: any): Promise<pulumi.dynamic.UpdateResult>;
  remove(id: string, props: any): Promise<void>;
}

export const PACKAGE_NAME = 'google-native-local';

/**
 * The text a resource stores in its `__provider` property: a module whose `handler()` returns
 * `lazyProvider(implModule)` from the installed package, which the dynamic-provider host loads
 * (`require-from-string`, then `handler()`). Written here rather than produced by Pulumi's closure
 * serializer: that serializer `require`s every built-in module of the running Node to name captured
 * values, and on Node 26 one of them, `node:ffi`, prints an ExperimentalWarning in every program.
 */
export function providerModuleText(implModule: string): string {
  const self = JSON.stringify(`${PACKAGE_NAME}/dist/provider/lazy-provider`);
  return `exports.handler = () => require(${self}).lazyProvider(${JSON.stringify(implModule)});\n`;
}

/** `implModule` is a module of this package's `dist/provider/`, e.g. `iam-binding-impl`. */
export function lazyProvider(implModule: string): pulumi.dynamic.ResourceProvider {
  const implPath = `google-native-local/dist/provider/${implModule}`;
  const runtimePath = 'google-native-local/dist/provider/runtime';
  // Required by package name on first use, so that the serialised provider stays a small closure
  // and the provider host loads the implementation from the installed package.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const impl = (): ProviderImpl => require(implPath);
  return {
    async configure(req) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require(runtimePath) as typeof import('./runtime')).configureFrom(req.config);
    },
    async check(olds, news) {
      return impl().check(olds, news);
    },
    async diff(id, olds, news) {
      return impl().diff(id, olds, news);
    },
    async create(inputs) {
      return impl().create(inputs);
    },
    async read(id, props) {
      return impl().read(id, props ?? {});
    },
    async update(id, olds, news) {
      return impl().update(id, olds, news);
    },
    async delete(id, props) {
      return impl().remove(id, props);
    },
  };
}
