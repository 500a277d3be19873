import { resolve } from 'node:path';
import { outsideProject } from '../config/project-file.js';
import { readDocument } from '../config/read-document.js';
import { configSchemaFile, schemaErrorText, schemaValidator } from '../config/schema-validator.js';
import { CalltapeError } from '../errors.js';
import type { Guidelines, ToolGuidelines } from './guidelines.js';

export const guidelinesSchemaPath = configSchemaFile('guidelines.schema.json');
const schemaErrors = schemaValidator('guidelines.schema.json');

interface GuidelinesDocument {
  readonly description?: string;
  readonly tools: {
    readonly [tool: string]: {
      readonly should_use?: readonly string[];
      readonly should_not_use?: readonly string[];
      readonly topics?: readonly string[];
    };
  };
}

/**
 * Reads a guidelines file (YAML or JSON), `file` relative to `cwd`; errors name the file and the
 * field, and quote nothing of a file outside the project (`root`).
 */
export function loadGuidelines(file: string, cwd: string, root = cwd): Guidelines {
  const path = resolve(cwd, file);
  return guidelinesFromValue(
    readDocument(path, 'guidelines file', root),
    path,
    !outsideProject(path, root),
  );
}

/**
 * Checks a guidelines object (a file's content, or one embedded in another file at `where`)
 * against the schema and gives it its typed form. `quote`: false when it was read from a file
 * outside the project, whose values errors never quote.
 */
export function guidelinesFromValue(value: unknown, where: string, quote: boolean): Guidelines {
  const errors = schemaErrors(value);
  if (errors.length > 0) {
    const lines = errors.map(
      (error) => `${where}: ${schemaErrorText(error, '', () => undefined, {}, quote)}`,
    );
    throw new CalltapeError(
      'CONFIG_INVALID',
      [...new Set(lines)].join('\n'),
      `See ${guidelinesSchemaPath} for every field.`,
    );
  }
  const document = value as GuidelinesDocument;
  const tools = new Map<string, ToolGuidelines>();
  for (const [tool, entry] of Object.entries(document.tools)) {
    tools.set(tool, {
      should_use: entry.should_use ?? [],
      should_not_use: entry.should_not_use ?? [],
      topics: entry.topics ?? [],
    });
  }
  return { description: document.description ?? '', tools };
}
