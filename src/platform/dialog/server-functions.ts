/**
 * The contract between the server and whatever names its functions (the dialogs' google.script.run,
 * the menu, the tests): exactly the exports of src/main.ts, read by the type system, so a renamed or
 * removed function, a changed parameter or a changed result is a type error wherever it is used.
 * A type-only import: nothing here exists at run time, so it is no import cycle.
 */
export type ServerFunctions = typeof import('../../main');

export type ServerFunctionName = keyof ServerFunctions;

export type ServerArguments<Name extends ServerFunctionName> = Parameters<ServerFunctions[Name]>;

/** What the function returns; google.script.run hands it to the success handler as plain data. */
export type ServerResult<Name extends ServerFunctionName> = ReturnType<ServerFunctions[Name]>;
