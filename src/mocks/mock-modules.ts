import { dirname, isAbsolute, resolve } from 'node:path';
import { readDocument } from '../config/read-document.js';

/** A module a mock file names. */
export interface NamedMockModule {
  /** Absolute path of the module. */
  readonly module: string;
  /** Where it is named: the file, the mock's index and tool (`mocks.yaml: mocks[2] (get_weather)`). */
  readonly where: string;
}

/**
 * The modules a mock file names, resolved against its folder, without loading any of them: what
 * `--no-code` must refuse before a run starts. A file that cannot be read, or whose mocks are not
 * a list, names none here; loading it reports what is wrong.
 */
export function mockModules(file: string): readonly NamedMockModule[] {
  let value: unknown;
  try {
    value = readDocument(file, 'mock file');
  } catch {
    return [];
  }
  const mocks: unknown =
    typeof value === 'object' && value !== null ? Reflect.get(value, 'mocks') : [];
  if (!Array.isArray(mocks)) return [];
  return mocks.flatMap((mock: unknown, index): NamedMockModule[] => {
    if (typeof mock !== 'object' || mock === null || !Object.hasOwn(mock, 'module')) return [];
    const module: unknown = Reflect.get(mock, 'module');
    const tool: unknown = Reflect.get(mock, 'tool');
    if (typeof module !== 'string') return [];
    return [
      {
        module: isAbsolute(module) ? module : resolve(dirname(file), module),
        where: `${file}: mocks[${index}]${typeof tool === 'string' ? ` (${tool})` : ''}.module`,
      },
    ];
  });
}
