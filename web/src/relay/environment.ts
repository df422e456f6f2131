import { Environment, RecordSource, Store } from 'relay-runtime';
import { createNetwork } from './network';

export function createEnvironment(): Environment {
  return new Environment({
    network: createNetwork(),
    store: new Store(new RecordSource()),
    isServer: false,
  });
}
