import { CalltapeError } from '../../errors.js';
import type { Importer, SourceFile } from '../import-types.js';
import { categoryOf, checkOf, convertBfcl } from './convert-bfcl.js';
import { readBfclAnswers, readBfclQuestions, type BfclAnswer } from './read-bfcl-lines.js';

/** Where BFCL keeps a category's possible answers, relative to the category file. */
const answersFolder = 'possible_answer';

/** The Berkeley Function Calling Leaderboard's category files, with their possible answers. */
export const bfclImporter: Importer = {
  description:
    'BFCL category files (BFCL_v4_simple_python.json, multiple, parallel, parallel_multiple, irrelevance, live_*), with possible_answer/<same name> beside them or --answers',
  companions: [],
  files: [
    {
      option: 'answers',
      description: `the possible answers (default: ${answersFolder}/<the file's name> beside it)`,
    },
  ],
  convert(source, companions, read) {
    const questions = readBfclQuestions(source.text, source.path);
    const base = source.path.split(/[\\/]/).at(-1) ?? source.path;
    const needed = questions.some((question) => checkOf(categoryOf(question.id)) === 'ast');
    const file = companions.get('answers') ?? (needed ? besideIt(source, base, read) : undefined);
    return convertBfcl(
      questions,
      file === undefined ? undefined : answersById(file),
      source.path,
      base.replace(/\.jsonl?$/i, '') || base,
    );
  },
};

function besideIt(
  source: SourceFile,
  base: string,
  read: Parameters<Importer['convert']>[2],
): SourceFile {
  const path = `${answersFolder}/${base}`;
  try {
    if (read === undefined) throw new Error('no reader');
    return read(path, `${source.path}: its possible answers`);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${source.path}: its possible answers: ${(error as Error).message}; BFCL keeps them in ${path} beside the category file, or name the file with --answers`,
    );
  }
}

function answersById(file: SourceFile): Map<string, BfclAnswer> {
  const byId = new Map<string, BfclAnswer>();
  for (const answer of readBfclAnswers(file.text, file.path)) {
    const known = byId.get(answer.id);
    if (known !== undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${answer.where}: $.id: "${answer.id}" is answered twice (first at ${known.where})`,
      );
    byId.set(answer.id, answer);
  }
  return byId;
}
