/**
 * HtmlService: HTML outputs and templates from the pushed .html files. Templates compile their
 * scriptlets (`<?= ?>` escaped, `<?!= ?>` raw, `<? ?>` code) into a function of the SCRIPT's realm,
 * so that scriptlets see the template's properties and then the script's globals, as on Google.
 * Showing an output (dialog, sidebar) is the Spreadsheet service's Ui, which refuses it where
 * Apps Script does (custom functions, triggers).
 */
import { AppsScriptException } from '../core';
import { escapeHtml } from '../html-escape';
import type { Enum } from './service-object';
import type { ServiceEnvironment } from './service-object';
import { defineEnum, expose, isEnumOf, signatureMismatch } from './service-object';

/** Pushed files by their Apps Script name: 'dialogs/settings.html' is the file 'dialogs/settings'. */
export class HtmlFiles {
  private readonly byName = new Map<string, string>();

  constructor(files: Record<string, string>) {
    for (const [fileName, content] of Object.entries(files)) {
      if (fileName.endsWith('.html')) this.byName.set(fileName.slice(0, -'.html'.length), content);
    }
  }

  read(name: string): string {
    const content = this.byName.get(name.endsWith('.html') ? name.slice(0, -'.html'.length) : name);
    if (content === undefined) throw new AppsScriptException(`No HTML file named ${name} was found.`);
    return content;
  }
}

/** The JavaScript body a template compiles to (HtmlTemplate.getCode shows it). */
export function compileTemplateSource(source: string): string {
  const statements: string[] = [];
  const scriptlet = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let position = 0;
  for (let match = scriptlet.exec(source); match; match = scriptlet.exec(source)) {
    if (match.index > position)
      statements.push(`__print(${JSON.stringify(source.slice(position, match.index))});`);
    const [, kind, code] = match;
    if (kind === '=') statements.push(`__printEscaped(${code!.trim()});`);
    else if (kind === '!=') statements.push(`__print(${code!.trim()});`);
    else statements.push(code!);
    position = scriptlet.lastIndex;
  }
  if (position < source.length) statements.push(`__print(${JSON.stringify(source.slice(position))});`);
  return `with (__templateVariables) {\n${statements.join('\n')}\n}`;
}

class HtmlOutput {
  #content: string;
  #title = '';
  #width: number | null = null;
  #height: number | null = null;
  #faviconUrl: string | null = null;
  readonly #enums: HtmlEnums;

  constructor(content: string, enums: HtmlEnums) {
    this.#content = content;
    this.#enums = enums;
  }

  getContent(): string {
    return this.#content;
  }

  setContent(content: unknown): this {
    this.#content = requireString(content, 'HtmlOutput.setContent');
    return this;
  }

  append(addedContent: unknown): this {
    this.#content += requireString(addedContent, 'HtmlOutput.append');
    return this;
  }

  appendUntrusted(addedContent: unknown): this {
    this.#content += escapeHtml(requireString(addedContent, 'HtmlOutput.appendUntrusted'));
    return this;
  }

  clear(): this {
    this.#content = '';
    return this;
  }

  getTitle(): string {
    return this.#title;
  }

  setTitle(title: unknown): this {
    this.#title = requireString(title, 'HtmlOutput.setTitle');
    return this;
  }

  getWidth(): number | null {
    return this.#width;
  }

  setWidth(width: unknown): this {
    this.#width = requirePixels(width, 'HtmlOutput.setWidth');
    return this;
  }

  getHeight(): number | null {
    return this.#height;
  }

  setHeight(height: unknown): this {
    this.#height = requirePixels(height, 'HtmlOutput.setHeight');
    return this;
  }

  getFaviconUrl(): string | null {
    return this.#faviconUrl;
  }

  setFaviconUrl(iconUrl: unknown): this {
    this.#faviconUrl = requireString(iconUrl, 'HtmlOutput.setFaviconUrl');
    return this;
  }

  /** Only the names Google accepts; the tag matters to the browser only, so it is not kept. */
  addMetaTag(name: unknown, content: unknown): this {
    if (typeof name !== 'string' || typeof content !== 'string') {
      throw signatureMismatch('HtmlOutput.addMetaTag', [name, content]);
    }
    if (
      !/^(apple-mobile-web-app-capable|google-site-verification|mobile-web-app-capable|viewport)$/.test(name)
    ) {
      throw new AppsScriptException('Invalid argument: name');
    }
    return this;
  }

  /** Matters to the browser only: checked, not kept. */
  setXFrameOptionsMode(mode: unknown): this {
    if (!isEnumOf(this.#enums.XFrameOptionsMode, mode)) {
      throw signatureMismatch('HtmlOutput.setXFrameOptionsMode', [mode]);
    }
    return this;
  }

  /** Deprecated on Google (every output is IFRAME now); accepted and ignored as there. */
  setSandboxMode(mode: unknown): this {
    if (!isEnumOf(this.#enums.SandboxMode, mode))
      throw signatureMismatch('HtmlOutput.setSandboxMode', [mode]);
    return this;
  }
}

class HtmlTemplate {
  readonly #source: string;
  readonly #env: ServiceEnvironment;
  readonly #createOutput: (content: string) => unknown;

  constructor(source: string, env: ServiceEnvironment, createOutput: (content: string) => unknown) {
    this.#source = source;
    this.#env = env;
    this.#createOutput = createOutput;
  }

  getRawContent(): string {
    return this.#source;
  }

  getCode(): string {
    return compileTemplateSource(this.#source);
  }

  evaluate(): unknown {
    // What the script assigned to the template (template.items = …) are its own properties.
    const variables: Record<string, unknown> = {};
    for (const name of Object.keys(this))
      variables[name] = (this as unknown as Record<string, unknown>)[name];
    let output = '';
    const render = this.#env.realm.compileTemplate(compileTemplateSource(this.#source));
    render(
      this.#env.realm.toScript(variables),
      (value: unknown) => (output += String(value)),
      (value: unknown) => (output += escapeHtml(String(value))),
    );
    return this.#createOutput(output);
  }
}

function requireString(value: unknown, method: string): string {
  if (typeof value !== 'string') throw signatureMismatch(method, [value]);
  return value;
}

function requirePixels(value: unknown, method: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw signatureMismatch(method, [value]);
  return value;
}

interface HtmlEnums {
  XFrameOptionsMode: Enum<'ALLOWALL' | 'DEFAULT'>;
  SandboxMode: Enum<'EMULATED' | 'IFRAME' | 'NATIVE'>;
}

export function createHtmlService(
  env: ServiceEnvironment,
  files: HtmlFiles,
): GoogleAppsScript.HTML.HtmlService {
  const enums: HtmlEnums = {
    XFrameOptionsMode: defineEnum('HtmlService.XFrameOptionsMode', ['ALLOWALL', 'DEFAULT'], env.counter),
    SandboxMode: defineEnum('HtmlService.SandboxMode', ['EMULATED', 'IFRAME', 'NATIVE'], env.counter),
  };
  const createOutput = (content: string) => expose('HtmlOutput', new HtmlOutput(content, enums), env);
  const createTemplate = (source: string) =>
    expose('HtmlTemplate', new HtmlTemplate(source, env, createOutput), env);
  const service = {
    ...enums,
    createHtmlOutput(html: unknown = '') {
      return createOutput(requireString(html, 'HtmlService.createHtmlOutput'));
    },
    createHtmlOutputFromFile(filename: unknown) {
      return createOutput(files.read(requireString(filename, 'HtmlService.createHtmlOutputFromFile')));
    },
    createTemplate(html: unknown) {
      return createTemplate(requireString(html, 'HtmlService.createTemplate'));
    },
    createTemplateFromFile(filename: unknown) {
      return createTemplate(files.read(requireString(filename, 'HtmlService.createTemplateFromFile')));
    },
  };
  return expose('HtmlService', service, env) as unknown as GoogleAppsScript.HTML.HtmlService;
}
