import { t } from '@lingui/core/macro';
import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';

/**
 * Colours chosen for axe's AA contrast on white: the darkest teal for filled buttons with
 * white text, and a darker red for error text than Mantine's default.
 */
export const theme = createTheme({
  primaryColor: 'teal',
  // People who ask their system for less motion get no transitions (and so do the browser tests).
  respectReducedMotion: true,
  primaryShade: { light: 9, dark: 7 },
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS font stack
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  components: {
    Anchor: { defaultProps: { c: 'teal.9' } },
    // Icon-only close buttons need a name for screen readers (axe: button-name); in the language
    // shown when each is drawn (Mantine calls a function of default props at every render).
    Modal: { defaultProps: () => ({ closeButtonProps: { 'aria-label': t`Close` } }) },
    Notification: { defaultProps: () => ({ closeButtonProps: { 'aria-label': t`Close notification` } }) },
    // A label longer than its button (German, the pseudo-locale) wraps rather than being cut.
    Button: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--button-height)' },
        label: { whiteSpace: 'normal', textAlign: 'center', paddingBlock: 4 },
      },
    },
    // A badge's words are whole, never cut to "DISPATC..." or a count to nothing: it keeps its
    // width in a narrow column or a nowrap row (issues 41 and 43).
    Badge: {
      styles: { root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible' } },
    },
    // Mantine's own label for the eye button is English.
    PasswordInput: {
      defaultProps: () => ({ visibilityToggleButtonProps: { 'aria-label': t`Show or hide the password` } }),
    },
    // Picking the selected option again keeps it (Mantine would clear it, and a required select
    // then says it is required); a select that may be emptied says so with `clearable`.
    Select: { defaultProps: { allowDeselect: false } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  light: {
    '--mantine-color-error': current.colors.red[9],
    '--mantine-color-dimmed': current.colors.gray[7],
    '--mantine-color-placeholder': current.colors.gray[7],
    // Text of light buttons and the active menu link, dark enough on their hover shade too.
    '--mantine-color-teal-light-color': darken(current.colors.teal[9], 0.2),
    '--mantine-color-red-light-color': darken(current.colors.red[9], 0.2),
    // Mantine lightens a shade-9 button on hover (teal.8), which white text fails.
    '--mantine-color-teal-filled-hover': darken(current.colors.teal[9], 0.15),
  },
  dark: {},
});
