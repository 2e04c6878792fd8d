import {
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { createPortal } from 'react-dom';

export interface FormElementProps {
  children?: ReactNode;
  className?: string;
  id?: string;
  name?: string;
  method?: string;
  target?: string;
  action?: string;
  autoComplete?: string;
  encType?: string;
  acceptCharset?: string;
  noValidate?: boolean;
  onSubmit?(event: FormEvent<HTMLFormElement>): void;
  ref?: Ref<HTMLFormElement | null>;
}

const ATTRIBUTES = {
  className: 'class',
  id: 'id',
  name: 'name',
  method: 'method',
  target: 'target',
  action: 'action',
  autoComplete: 'autocomplete',
  encType: 'enctype',
  acceptCharset: 'accept-charset',
} as const;

// The wrapper makes no box of its own: the form lays out as if it stood in its place.
const contents = { display: 'contents' } as const;

/**
 * The `<form>` of an rjsf form (its `tagName`), a real form element that React does not
 * manage itself: its fields are rendered into it through a portal. A form element answers
 * every property read with a look-up of its controls by name (HTML's named properties), and
 * React reads its own property of every element an event passes and writes it on every render
 * of the form. After any change to the controls' names or the tree below, that look-up lists
 * every control again: in a form of a few thousand controls (a 300-row list) a few
 * milliseconds, several times a key press. The element, its attributes, its submit events and
 * the `ref` are those of a `<form>` React would render; the fields mount once it is in the page.
 */
export function FormElement(props: FormElementProps) {
  const { children, onSubmit, ref, noValidate } = props;
  const [form] = useState(() => document.createElement('form'));
  const host = useRef<HTMLDivElement>(null);
  const [attached, setAttached] = useState(false);
  useImperativeHandle(ref, () => form, [form]);

  useLayoutEffect(() => {
    const into = host.current!;
    into.appendChild(form);
    setAttached(true);
    return () => {
      form.remove();
    };
  }, [form]);

  // Through Element's own methods: `form.getAttribute` would be a named look-up on the form too.
  const values = Object.keys(ATTRIBUTES).map((prop) => props[prop as keyof typeof ATTRIBUTES]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `values` are the attributes' props
  useLayoutEffect(() => {
    const { getAttribute, setAttribute, removeAttribute, toggleAttribute } = Element.prototype;
    Object.values(ATTRIBUTES).forEach((attribute, i) => {
      const value = values[i];
      if (value === undefined || value === null) removeAttribute.call(form, attribute);
      else if (getAttribute.call(form, attribute) !== String(value)) setAttribute.call(form, attribute, String(value));
    });
    toggleAttribute.call(form, 'novalidate', Boolean(noValidate));
  }, [form, noValidate, ...values]);

  // The submit handler as React would call it, with an event whose currentTarget is the form.
  const submit = useRef(onSubmit);
  submit.current = onSubmit;
  useLayoutEffect(() => {
    const listener = (event: Event) => {
      // React hears events at its root, which one that does not bubble (rjsf's own `submit` CustomEvent) never reaches.
      if (!event.bubbles) return;
      let persisted = false;
      const synthetic = {
        nativeEvent: event,
        type: event.type,
        target: event.target,
        currentTarget: form,
        bubbles: event.bubbles,
        cancelable: event.cancelable,
        timeStamp: event.timeStamp,
        isTrusted: event.isTrusted,
        eventPhase: event.eventPhase,
        get defaultPrevented() {
          return event.defaultPrevented;
        },
        preventDefault: () => event.preventDefault(),
        isDefaultPrevented: () => event.defaultPrevented,
        stopPropagation: () => event.stopPropagation(),
        isPropagationStopped: () => false,
        persist: () => {
          persisted = true;
        },
        get persisted() {
          return persisted;
        },
      } as unknown as FormEvent<HTMLFormElement>;
      submit.current?.(synthetic);
    };
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, [form]);

  return (
    <div ref={host} style={contents}>
      {attached && createPortal(children, form)}
    </div>
  );
}
