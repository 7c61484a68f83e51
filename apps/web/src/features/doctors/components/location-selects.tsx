import { useLingui } from '@lingui/react/macro';
import { Select, type SelectProps } from '@mantine/core';
import { useMemo, type KeyboardEvent } from 'react';
import { useCities } from '../api/get-cities.ts';
import { useCountries } from '../api/get-countries.ts';

type PickerProps = Omit<SelectProps, 'data'>;

type Option = { value: string; label: string };

/**
 * Typing highlights the first match, so Enter picks it (issue 41: with one match showing, Enter
 * submitted the whole form and the picker cleared the text). Enter in a picker never submits
 * the form: with nothing matching it does nothing.
 *
 * Enter is taken in the capture phase, before Mantine's own handler, because Mantine clicks the
 * option at an index it keeps apart from the list: when the list was filtered after the index was
 * set (the countries arriving late, the dropdown drawn a frame later), that index points past the
 * list and Enter did nothing. Here the highlighted option is read from the list itself, or else
 * the first option matching the text, and clicked, so Mantine's own submit sets value and text.
 */
function pickerKeys({ onKeyDownCapture, onChange }: PickerProps, data: Option[]) {
  return {
    selectFirstOptionOnChange: true,
    onKeyDownCapture: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
        event.preventDefault();
        event.stopPropagation();
        const list = document.getElementById(event.currentTarget.getAttribute('aria-controls') ?? '');
        const options = [...(list?.querySelectorAll<HTMLElement>('[data-combobox-option]') ?? [])];
        const search = event.currentTarget.value.trim().toLowerCase();
        const highlighted = options.find((option) => option.hasAttribute('data-combobox-selected'));
        const firstMatch = options.find((option) => option.textContent?.toLowerCase().includes(search));
        const option = highlighted ?? (search ? firstMatch : undefined);
        if (option) option.click();
        else if (search && !list) {
          // The dropdown is not drawn yet: pick the first match from the data.
          const first = data.find((entry) => entry.label.toLowerCase().includes(search));
          if (first) onChange?.(first.value, first);
        }
      }
      onKeyDownCapture?.(event);
    },
  };
}

/** Every country, searchable by name. */
export function CountrySelect(props: PickerProps) {
  const { t } = useLingui();
  const countries = useCountries();
  const data = useMemo(
    () => (countries.data ?? []).map((country) => ({ value: String(country.CountryId), label: country.CountryName })),
    [countries.data],
  );
  return (
    <Select
      searchable
      nothingFoundMessage={t`No country found`}
      limit={300}
      {...props}
      {...pickerKeys(props, data)}
      data={data}
    />
  );
}

/**
 * The cities of one country. There can be thousands, so it is searchable and shows the
 * first hundred matches; it stays disabled until a country is chosen.
 */
export function CitySelect({ countryId, ...props }: PickerProps & { countryId: number | null }) {
  const { t } = useLingui();
  const cities = useCities(countryId);
  const data = useMemo(
    () => (cities.data ?? []).map((city) => ({ value: String(city.CityId), label: city.CityName })),
    [cities.data],
  );
  return (
    <Select
      searchable
      nothingFoundMessage={t`No city found`}
      limit={100}
      placeholder={countryId === null ? t`Choose a country first` : t`Search a city`}
      {...props}
      {...pickerKeys(props, data)}
      data={data}
      disabled={countryId === null || props.disabled}
    />
  );
}

/** A stored clinic's city name, read from its country's city list. */
export function CityName({ countryId, cityId }: { countryId: number; cityId: number }) {
  const cities = useCities(countryId);
  return cities.data?.find((city) => city.CityId === cityId)?.CityName ?? '';
}
