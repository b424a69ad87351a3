/**
 * The client side of google.script.run and google.script.host, as HtmlService gives them to every
 * dialog, typed from the server's exports: a method per server function taking its parameters.
 *
 * The success handler is set before the function is named, so its result cannot be inferred from
 * the call: instead the handler declares the result it expects, and only the server functions whose
 * result fits it can follow (`.withSuccessHandler((view: SettingsView) => …).getSettings()`).
 */
import type { ServerArguments, ServerFunctionName, ServerResult } from './server-functions';

export type ServerRunner<Expected = unknown> = {
  [Name in ServerFunctionName as ServerResult<Name> extends Expected ? Name : never]: (
    ...args: ServerArguments<Name>
  ) => void;
} & {
  withSuccessHandler<Result>(handler: (result: Result, userObject?: unknown) => void): ServerRunner<Result>;
  withFailureHandler(handler: (error: Error, userObject?: unknown) => void): ServerRunner<Expected>;
  withUserObject(userObject: unknown): ServerRunner<Expected>;
};

declare global {
  const google: {
    script: {
      run: ServerRunner;
      host: {
        readonly origin: string;
        close(): void;
        setHeight(height: number): void;
        setWidth(width: number): void;
        editor: { focus(): void };
      };
    };
  };
}
