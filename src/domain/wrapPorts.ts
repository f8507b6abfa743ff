/** A port method as a wrapper receives it: already bound to its port. */
export type PortMethod = (...args: unknown[]) => unknown;

/** What a wrapper makes of one method of one port (`port` is the member's name in the stores, e.g. `messages`). */
export type MethodWrapper = (port: string, method: string, bound: PortMethod) => PortMethod;

/** What a wrapper makes of a port's other members (flags such as `writesApplyOnCall`); as they are by default. */
export type FieldWrapper = (port: string, field: string, value: unknown) => unknown;

function wrapPort<T extends object>(port: T, name: string, wrap: MethodWrapper, field: FieldWrapper): T {
  const methods = new Map<string, PortMethod>();
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string') return value;
      if (typeof value !== 'function') return field(name, property, value);
      let method = methods.get(property);
      if (method === undefined) {
        method = wrap(name, property, (value as PortMethod).bind(target));
        methods.set(property, method);
      }
      return method;
    },
  });
}

/**
 * The same stores with every method of every port replaced by what `wrap` makes of it, made once per port and
 * method on first use (the commit fence, storage metrics). Object-valued members are the ports, wrapped on first
 * use, so a port added to the stores later is wrapped too; the stores' own functions (close) stay as they are.
 */
export function wrapPorts<T extends object>(
  stores: T,
  wrap: MethodWrapper,
  field: FieldWrapper = (_port, _field, value) => value,
): T {
  const ports = new Map<string, unknown>();
  return new Proxy(stores, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value === 'function') return (value as PortMethod).bind(target);
      if (value === null || typeof value !== 'object' || typeof property !== 'string') return value;
      let port = ports.get(property);
      if (port === undefined) ports.set(property, (port = wrapPort(value, property, wrap, field)));
      return port;
    },
  });
}
