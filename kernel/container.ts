/**
 * The only module that imports tsyringe: everything else speaks in typed tokens. Registration is
 * by value (async work happens first), never by decorator metadata, which vitest's esbuild does not emit.
 */
import 'reflect-metadata';
import { container as rootTsyringe, type DependencyContainer } from 'tsyringe';
import { PluginDependencyError } from './errors.js';

/** A typed service reference: the phantom `T` ties `resolve(token)` to its value's type. */
export interface Token<T> {
  readonly key: symbol;
  readonly name: string;
  /** Phantom field for inference only; never set. */
  readonly __type?: T;
}

export function token<T>(name: string): Token<T> {
  return { key: Symbol.for(`notekernel:${name}`), name };
}

type Disposer = () => unknown;

/**
 * A scope wraps one tsyringe container. The kernel owns disposal: tsyringe only disposes
 * what it constructed, and we construct nothing through it, so each scope records its own
 * disposers and runs them in reverse registration order.
 */
export class Scope {
  private readonly disposers: Disposer[] = [];
  private readonly children = new Set<Scope>();
  private disposed = false;

  private constructor(
    private readonly inner: DependencyContainer,
    readonly label: string,
    private readonly parent?: Scope,
  ) {}

  static root(label: string): Scope {
    return new Scope(rootTsyringe.createChildContainer(), label);
  }

  child(label: string): Scope {
    const scope = new Scope(this.inner.createChildContainer(), label, this);
    this.children.add(scope);
    return scope;
  }

  provide<T>(tok: Token<T>, value: T): void {
    this.inner.register(tok.key, { useValue: value });
  }

  resolve<T>(tok: Token<T>, requiredBy?: string): T {
    if (!this.inner.isRegistered(tok.key, true)) {
      const who = requiredBy ? ` (required by ${requiredBy})` : '';
      throw new PluginDependencyError(`No service "${tok.name}" is registered in scope "${this.label}"${who}.`, {
        service: tok.name,
        ...(requiredBy ? { required_by: requiredBy } : {}),
      });
    }
    return this.inner.resolve<T>(tok.key);
  }

  tryResolve<T>(tok: Token<T>): T | undefined {
    return this.inner.isRegistered(tok.key, true) ? this.inner.resolve<T>(tok.key) : undefined;
  }

  onDispose(disposer: Disposer): void {
    this.disposers.push(disposer);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const child of [...this.children]) await child.dispose();
    const errors: unknown[] = [];
    for (const disposer of this.disposers.reverse()) {
      try {
        await disposer();
      } catch (err) {
        errors.push(err);
      }
    }
    this.parent?.children.delete(this);
    this.inner.clearInstances();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposers failed in scope ${this.label}`);
  }
}
