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

/** What a resource class of one Google REST resource says about itself beyond its types. */
export interface ResourceKind {
  /** The implementation module of `dist/provider/` (e.g. `group-impl`). */
  implModule: string;
  /** The type token's module and type: `pulumi-nodejs:dynamic/{module}:{type}`. */
  module: string;
  type: string;
  /**
   * The properties the service fills: output-only ones, and arguments it computes when the program
   * leaves them out (a report's `state`, a discovery client's `expireTime` from its `ttl`).
   * Registered empty, so that Pulumi takes them from the provider (unknown in a preview): a
   * property a class declares but does not register never resolves.
   */
  outputsOnly: readonly string[];
}

/**
 * The shape every plain REST resource class shares (EndpointPolicy, Source and the Migration
 * Center resources): inputs are the arguments plus the empty output-only properties, `get` adopts
 * a resource by its id (its full name) with only the output-only properties. A class declares its
 * kind and its typed outputs; nothing else.
 */
export abstract class RestDynamicResource extends LocalDynamicResource {
  /** Adopts an existing resource by its id: its full name, `projects/{project}/locations/{location}/...`. */
  public static get<T>(
    this: new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    return new this(name, undefined as never, { ...opts, id });
  }

  protected constructor(kind: ResourceKind, name: string, args: object | undefined, opts: pulumi.CustomResourceOptions | undefined) {
    // `project` and `location` are arguments of every one of them, filled by check() from the
    // provider's configuration when the program leaves them out.
    const filled = ['project', 'location', ...kind.outputsOnly];
    const outputsOnly: pulumi.Inputs = Object.fromEntries(filled.map((field) => [field, undefined]));
    super(kind.implModule, name, opts?.id ? outputsOnly : { ...outputsOnly, ...args }, opts, kind.module, kind.type);
  }
}
