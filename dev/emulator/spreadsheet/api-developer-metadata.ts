/**
 * The script-visible DeveloperMetadata of a spreadsheet: key-value pairs stored in the document
 * itself, so that code which opens the spreadsheet by id (a time-driven trigger has no document
 * properties) can read what was kept for it. Only the spreadsheet location is emulated; moving
 * metadata to rows, columns or sheets throws "not emulated".
 */
import { AppsScriptException, strict } from '../core';
import { requireString, signatureMismatch } from './arguments';
import { isMemberOf, METADATA_VISIBILITIES } from './script-enums';
import { type ServiceEnv, readableWorkbook, writableWorkbook } from './service-env';
import type { DeveloperMetadataData, MetadataVisibility, WorkbookModel } from './workbook-model';

type DeveloperMetadata = GoogleAppsScript.Spreadsheet.DeveloperMetadata;

export function exposeDeveloperMetadata(
  env: ServiceEnv,
  workbook: WorkbookModel,
  metadata: DeveloperMetadataData,
): DeveloperMetadata {
  return new DeveloperMetadataApi(env, workbook, metadata) as unknown as DeveloperMetadata;
}

/**
 * The arguments of addDeveloperMetadata: (key), (key, visibility), (key, value) or (key, value,
 * visibility). The emulator's enums are their names, so a two-argument call whose second argument is
 * "DOCUMENT" or "PROJECT" cannot be told from a value: it is refused rather than guessed.
 */
export function metadataArguments(
  method: string,
  args: unknown[],
): { key: string; value: string | null; visibility: MetadataVisibility } {
  const [key, second, third, ...extra] = args;
  requireString(method, args, key);
  if (key === '' || extra.length > 0) throw signatureMismatch(method, args);
  if (args.length === 1) return { key, value: null, visibility: 'DOCUMENT' };
  requireString(method, args, second);
  if (args.length === 2) {
    if (isMemberOf(METADATA_VISIBILITIES, second)) {
      throw new AppsScriptException(
        `not emulated: ${method}(key, ${second}) is ambiguous here; pass (key, value, visibility)`,
      );
    }
    return { key, value: second, visibility: 'DOCUMENT' };
  }
  if (!isMemberOf(METADATA_VISIBILITIES, third)) throw signatureMismatch(method, args);
  return { key, value: second, visibility: third };
}

type DeveloperMetadataMethod =
  'getId' | 'getKey' | 'getValue' | 'getVisibility' | 'setKey' | 'setValue' | 'setVisibility' | 'remove';

class DeveloperMetadataApi implements Pick<DeveloperMetadata, DeveloperMetadataMethod> {
  readonly #env: ServiceEnv;
  readonly #workbook: WorkbookModel;
  readonly #metadata: DeveloperMetadataData;
  readonly #self: DeveloperMetadataApi;

  constructor(env: ServiceEnv, workbook: WorkbookModel, metadata: DeveloperMetadataData) {
    this.#env = env;
    this.#workbook = workbook;
    this.#metadata = metadata;
    this.#self = strict('DeveloperMetadata', this, env.counter);
    return this.#self;
  }

  get #public(): DeveloperMetadata {
    return this.#self as unknown as DeveloperMetadata;
  }

  #current(): DeveloperMetadataData {
    if (!this.#workbook.developerMetadata.includes(this.#metadata)) {
      throw new AppsScriptException(`Developer metadata ${this.#metadata.id} has been removed.`);
    }
    return this.#metadata;
  }

  #read(): DeveloperMetadataData {
    readableWorkbook(this.#env, this.#workbook);
    return this.#current();
  }

  #write(method: string): DeveloperMetadataData {
    writableWorkbook(this.#env, this.#workbook, method);
    return this.#current();
  }

  getId(): number {
    return this.#read().id;
  }

  getKey(): string {
    return this.#read().key;
  }

  getValue(): string | null {
    return this.#read().value;
  }

  getVisibility(): GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility {
    return this.#read().visibility as unknown as GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility;
  }

  setKey(key: string): DeveloperMetadata {
    requireString('DeveloperMetadata.setKey', [key], key);
    if (key === '') throw signatureMismatch('DeveloperMetadata.setKey', [key]);
    const metadata = this.#write('setKey');
    this.#workbook.checkMetadataSize(key.length - metadata.key.length);
    metadata.key = key;
    return this.#public;
  }

  setValue(value: string): DeveloperMetadata {
    requireString('DeveloperMetadata.setValue', [value], value);
    const metadata = this.#write('setValue');
    this.#workbook.checkMetadataSize(value.length - (metadata.value?.length ?? 0));
    metadata.value = value;
    return this.#public;
  }

  setVisibility(visibility: GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility): DeveloperMetadata {
    if (!isMemberOf(METADATA_VISIBILITIES, visibility)) {
      throw signatureMismatch('DeveloperMetadata.setVisibility', [visibility]);
    }
    this.#write('setVisibility').visibility = visibility;
    return this.#public;
  }

  remove(): void {
    const metadata = this.#write('remove');
    this.#workbook.developerMetadata.splice(this.#workbook.developerMetadata.indexOf(metadata), 1);
  }
}
