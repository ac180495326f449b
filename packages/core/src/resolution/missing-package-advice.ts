import type { PackageKind } from '@skillopt/contract';
import { nearestWord } from '../config/did-you-mean.js';
import { listOf } from './list-of.js';
import { conventionalPackageNames } from './package-candidates.js';
import { installedPackageNames, shortNameOf } from './installed-package-names.js';
import { FIRST_PARTY_PACKAGES, type FirstPartyPackage } from './known-package-names.js';

/** What to tell a user whose env or backend name resolved to nothing. */
export interface MissingPackageAdvice {
  /** Sentences for the error message, after the one saying what was looked for. */
  sentences: string[];
  /** The `npm install` of a package known to exist; absent when none is (or it is already installed). */
  installCommand?: string;
  /** The name the user probably meant. */
  didYouMean?: string;
}

const KIND_WORDS: Record<PackageKind, string> = { env: 'env', backend: 'backend' };

/**
 * Advice for a name that did not resolve. A name near an installed package or a first-party one is
 * answered with "did you mean", and an `npm install` only when that package exists and is not
 * installed; a name near nothing gets an `npm install` worded as what it is — a guess that it may
 * be a third-party package — so that no message asserts a package exists that may not.
 */
export function adviseMissingPackage(
  kind: PackageKind,
  name: string,
  searchDirectories: readonly string[],
  firstParty: readonly FirstPartyPackage[] = FIRST_PARTY_PACKAGES[kind],
): MissingPackageAdvice {
  const word = KIND_WORDS[kind];
  const given = name.trim();
  const conventional = shortNameOf(given);
  const shortName = conventional?.kind === kind ? conventional.shortName : given.startsWith('@') ? undefined : given;
  const installed = installedPackageNames(kind, searchDirectories);
  const ownPackageName = (id: string) => conventionalPackageNames(kind, id)[0] as string;

  const exact = shortName === undefined ? undefined : firstParty.find((known) => known.id === shortName);
  if (exact?.published) {
    const installCommand = `npm install ${ownPackageName(exact.id)}`;
    return { sentences: [`Install it in your project: ${installCommand}`], installCommand };
  }
  if (exact)
    return {
      sentences: [
        `${ownPackageName(exact.id)} is a planned first-party ${word} that is not published yet; name an installed ${word}, or a path to your own package.`,
      ],
    };

  const installedByShortName = new Map<string, string>();
  for (const packageName of installed) {
    const found = shortNameOf(packageName);
    if (found !== undefined && !installedByShortName.has(found.shortName)) installedByShortName.set(found.shortName, packageName);
  }
  const nearest =
    shortName === undefined ? nearestWord(given, installed) : nearestWord(shortName, [...installedByShortName.keys(), ...firstParty.map((known) => known.id)]);
  if (nearest !== undefined) {
    const suggestion = nearest.word;
    const installedPackage = shortName === undefined ? suggestion : installedByShortName.get(suggestion);
    if (installedPackage !== undefined) return { sentences: [`Did you mean "${suggestion}"? It is installed (${installedPackage}).`], didYouMean: suggestion };
    const known = firstParty.find((candidate) => candidate.id === suggestion);
    if (known?.published) {
      const installCommand = `npm install ${ownPackageName(suggestion)}`;
      return { sentences: [`Did you mean "${suggestion}"? Install it in your project: ${installCommand}`], installCommand, didYouMean: suggestion };
    }
    return { sentences: [`Did you mean "${suggestion}"? ${ownPackageName(suggestion)} is planned but not published yet.`], didYouMean: suggestion };
  }

  const published = firstParty.filter((known) => known.published).map((known) => known.id);
  const ours = `SkillOpt's own ${word}s are ${listOf(published)}.`;
  if (given.startsWith('@skillopt/')) return { sentences: [`SkillOpt publishes no ${word} package named ${given}.`, ours] };
  if (!isPlausiblePackageName(given)) return { sentences: [ours] };
  const thirdParty = shortName === undefined || conventional !== undefined ? given : `skillopt-${kind === 'env' ? 'env' : 'backends'}-${shortName}`;
  return { sentences: [ours, `If it is a third-party package, install it in your project under its published name, e.g. npm install ${thirdParty}`] };
}

/** A name the registry could hold: not over its length limit, and with a letter in it. */
function isPlausiblePackageName(name: string): boolean {
  return name.length <= 214 && /[a-z]/i.test(name);
}
