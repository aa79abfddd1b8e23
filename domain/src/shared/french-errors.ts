import { z, ZodIssueCode, type ZodErrorMap, type ZodParsedType } from 'zod';
import { config as configureZod4 } from 'zod/v4';
import { fr } from 'zod/v4/locales';

/** zod's type names in French, as "doit être …" completes them. */
const TYPES: Partial<Record<ZodParsedType, string>> = {
  string: 'du texte',
  number: 'un nombre',
  integer: 'un nombre entier',
  bigint: 'un nombre entier',
  float: 'un nombre',
  nan: 'un nombre',
  boolean: 'vrai ou faux',
  date: 'une date',
  object: 'un objet',
  array: 'une liste',
  null: 'null',
  undefined: 'absent',
  map: 'un objet',
  set: 'une liste',
};
const typeName = (t: ZodParsedType) => TYPES[t] ?? 'une valeur valide';

/** "Le champ « a.b »" for a field, or what it is for the root of the input. */
const subject = (path: Array<string | number>) =>
  path.length === 0 ? 'La valeur envoyée' : `Le champ « ${path.join('.')} »`;

const plural = (n: number | bigint, one: string, many: string) => (Number(n) > 1 ? many : one);

/**
 * The one zod error map of the HTTP layer: a French sentence for every issue a schema did not give
 * its own message to (schemas' own messages, in French, win). Installed with `z.setErrorMap`.
 */
export const frenchErrorMap: ZodErrorMap = (issue) => {
  const who = subject(issue.path);
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      if (issue.path.length === 0 && issue.expected === 'object')
        return { message: 'Le corps de la requête doit être un objet JSON.' };
      if (issue.received === 'undefined') {
        return { message: issue.path.length === 0 ? 'Données manquantes.' : `${who} est obligatoire.` };
      }
      return { message: `${who} doit être ${typeName(issue.expected)}.` };
    case ZodIssueCode.invalid_literal:
    case ZodIssueCode.invalid_enum_value:
    case ZodIssueCode.invalid_union:
    case ZodIssueCode.invalid_union_discriminator:
    case ZodIssueCode.invalid_intersection_types:
      return { message: `${who} n'a pas une valeur acceptée.` };
    case ZodIssueCode.unrecognized_keys:
      return { message: `Champ(s) inconnu(s) : ${issue.keys.join(', ')}.` };
    case ZodIssueCode.invalid_date:
      return { message: `${who} doit être une date valide.` };
    case ZodIssueCode.invalid_string:
      if (issue.validation === 'email') return { message: `${who} doit être une adresse email valide.` };
      if (issue.validation === 'datetime' || issue.validation === 'date')
        return { message: `${who} doit être une date valide.` };
      return { message: `${who} n'a pas le bon format.` };
    case ZodIssueCode.too_small:
      if (issue.type === 'string')
        return {
          message:
            Number(issue.minimum) <= 1
              ? `${who} ne doit pas être vide.`
              : `${who} doit contenir au moins ${issue.minimum} ${plural(issue.minimum, 'caractère', 'caractères')}.`,
        };
      if (issue.type === 'array' || issue.type === 'set')
        return {
          message: `${who} doit contenir au moins ${issue.minimum} ${plural(issue.minimum, 'élément', 'éléments')}.`,
        };
      if (issue.type === 'date') return { message: `${who} est une date trop ancienne.` };
      return {
        message: `${who} doit être ${issue.inclusive ? 'supérieur ou égal à' : 'supérieur à'} ${issue.minimum}.`,
      };
    case ZodIssueCode.too_big:
      if (issue.type === 'string')
        return {
          message: `${who} ne doit pas dépasser ${issue.maximum} ${plural(issue.maximum, 'caractère', 'caractères')}.`,
        };
      if (issue.type === 'array' || issue.type === 'set')
        return {
          message: `${who} ne doit pas dépasser ${issue.maximum} ${plural(issue.maximum, 'élément', 'éléments')}.`,
        };
      if (issue.type === 'date') return { message: `${who} est une date trop lointaine.` };
      return {
        message: `${who} doit être ${issue.inclusive ? 'inférieur ou égal à' : 'inférieur à'} ${issue.maximum}.`,
      };
    case ZodIssueCode.not_multiple_of:
      return { message: `${who} doit être un multiple de ${issue.multipleOf}.` };
    case ZodIssueCode.not_finite:
      return { message: `${who} doit être un nombre fini.` };
    default:
      return { message: `${who} n'est pas valide.` };
  }
};

/**
 * Makes every zod failure without a message of its own answer in French: the request schemas' (zod
 * 3, see frenchErrorMap) and the event schemas' (zod 4, its French locale: what a damaged log's
 * report quotes).
 */
export function useFrenchZodErrors(): void {
  z.setErrorMap(frenchErrorMap);
  configureZod4(fr());
}
