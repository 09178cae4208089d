// Every WCAG rule, registered in one list. The order is the order outcomes are reported in.
import { ariaAllowedAttr, ariaAttrDefined, ariaProhibitedAttr, ariaValidValue } from './aria-attributes.ts';
import { ariaRequiredChildren, ariaRequiredParent, ariaRequiredProps } from './aria-roles.ts';
import { autocompleteValid } from './autocomplete.ts';
import { bypassBlocks } from './bypass.ts';
import { textContrast } from './contrast.ts';
import { ariaHiddenFocus, presentationalChildrenFocus } from './focus-hidden.ts';
import { tdHeaders, thHasCells } from './tables.ts';
import { letterSpacing, lineHeight, wordSpacing } from './text-spacing.ts';
import { labelInName } from './label-in-name.ts';
import { elementLangValid, htmlHasLang, htmlLangValid } from './lang.ts';
import { dlStructure, listitemParent } from './lists.ts';
import { metaRefresh } from './meta-refresh.ts';
import { metaViewport } from './meta-viewport.ts';
import { buttonName, formFieldName, iframeName, imageButtonName, imageName, linkName, menuitemName, summaryName, svgImageName } from './names.ts';
import { orientationLock } from './orientation.ts';
import { headingName } from './heading-name.ts';
import { iframeFocus } from './iframe-focus.ts';
import { duplicateId } from './duplicate-id.ts';
import { headingDescriptive, imageAltMeaningful, labelDescriptive, linkPurpose, pageLanguageMatches, pageTitleDescriptive } from './judgement.ts';
import { audioAlternatives, autoplayAudio, movingContent, videoAlternatives } from './media.ts';
import { objectName } from './object-name.ts';
import { pageTitle } from './page-title.ts';
import { roleValid } from './role-valid.ts';
import type { WcagRule } from './rule.ts';

export const WCAG_RULES: readonly WcagRule[] = [
  imageName,
  imageButtonName,
  svgImageName,
  objectName,
  ariaRequiredChildren,
  ariaRequiredParent,
  metaViewport,
  metaRefresh,
  pageTitle,
  bypassBlocks,
  linkName,
  htmlHasLang,
  htmlLangValid,
  elementLangValid,
  roleValid,
  ariaAttrDefined,
  ariaValidValue,
  ariaAllowedAttr,
  ariaProhibitedAttr,
  ariaRequiredProps,
  buttonName,
  formFieldName,
  menuitemName,
  summaryName,
  iframeName,
  ariaHiddenFocus,
  presentationalChildrenFocus,
  tdHeaders,
  thHasCells,
  listitemParent,
  dlStructure,
  autocompleteValid,
  letterSpacing,
  wordSpacing,
  lineHeight,
  textContrast,
  labelInName,
  orientationLock,
  headingName,
  iframeFocus,
  duplicateId,
  videoAlternatives,
  audioAlternatives,
  autoplayAudio,
  movingContent,
  imageAltMeaningful,
  pageTitleDescriptive,
  linkPurpose,
  headingDescriptive,
  labelDescriptive,
  pageLanguageMatches,
];
