import type { ScreenProps } from '../types.ts';

export default function BoardScreen({ screen }: ScreenProps) {
  return <section data-screen={screen.id} />;
}
