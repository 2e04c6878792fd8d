import { Component, type ReactNode } from 'react';

/**
 * Keeps a pasted schema that rjsf or ajv cannot handle from taking the screen down: the
 * playground shows the reason instead of the form. Remount it (a new `key`) to try again.
 */
export class FormBoundary extends Component<
  { fallback(message: string): ReactNode; children: ReactNode },
  { error: string | undefined }
> {
  override state = { error: undefined as string | undefined };

  static getDerivedStateFromError(error: unknown): { error: string } {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override render(): ReactNode {
    return this.state.error === undefined ? this.props.children : this.props.fallback(this.state.error);
  }
}
