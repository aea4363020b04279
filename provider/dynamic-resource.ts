/**
 * The base of the package's resources: a custom resource of Pulumi's dynamic-provider package
 * (`pulumi-nodejs:dynamic/<module>:<type>`), the same type token and `__provider` property that
 * `pulumi.dynamic.Resource` sends, with the provider written as a small module text
 * (`providerModuleText`) instead of going through Pulumi's closure serializer.
 */
import * as pulumi from '@pulumi/pulumi';
import { providerModuleText } from './lazy-provider';

const PROVIDER_KEY = '__provider';

export abstract class LocalDynamicResource extends pulumi.CustomResource {
  /** `implModule` is a module of this package's `dist/provider/` (e.g. `import-job-impl`). */
  protected constructor(implModule: string, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions | undefined, module: string, type: string) {
    if (PROVIDER_KEY in props) throw new Error(`a dynamic resource must not define the ${PROVIDER_KEY} key`);
    super(`pulumi-nodejs:dynamic/${module}:${type}`, name, { ...props, [PROVIDER_KEY]: providerModuleText(implModule) }, opts);
  }
}
