import { Loader, Paper, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ContactCreateSchema, ContactMessages, contactUpdateSchemaFor } from '../../../common/partners';
import { FormActions } from '../../components/form-actions';
import { FormErrors } from '../../components/form-errors';
import { PageTitle } from '../../components/page-title';
import { GenderSelect, PersonNameFields } from '../../components/person-fields';
import { showDanger, showSuccess } from '../../lib/alerts';
import { checkWith } from '../../lib/forms';
import { ApiError } from '../../lib/http';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { contactKey, createContact, getContact, partnerKey, updateContact } from './api';

const EMPTY = {
  firstName: '',
  preposition: '',
  lastName: '',
  gender: 'M',
  email: '',
  phoneNumber: '',
  username: '',
  password: '',
};
type Values = typeof EMPTY;

/** Contact create/edit: the password field shows only when a username is filled (spec 000 §3). */
export function ContactFormPage() {
  const { partnerId: id, contactId } = useParams() as { partnerId: string; contactId?: string };
  const isEdit = Boolean(contactId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [messages, setMessages] = useState<string[]>([]);
  const contact = useQuery({
    queryKey: contactKey(id, contactId ?? ''),
    queryFn: () => getContact(id, contactId!),
    enabled: isEdit,
    retry: false,
  });
  const form = useForm<Values>({ mode: 'controlled', initialValues: EMPTY });
  const back = `/partners/${id}/contacts`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (contact.data) form.setValues({ ...EMPTY, ...contact.data, password: '' });
  }, [contact.data]);
  useFailedQueryAlert(contact.error, ContactMessages.fetchFailed, back);

  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = { ...values, gender: values.gender as 'M' | 'F' | 'U' };
      return isEdit ? updateContact(id, contactId!, body) : createContact(id, body);
    },
    onSuccess: () => {
      showSuccess(isEdit ? ContactMessages.saved : ContactMessages.created);
      void client.invalidateQueries({ queryKey: partnerKey(id) });
      navigate(back);
    },
    onError: (err) => {
      setMessages(err instanceof ApiError && err.errors.length > 0 ? err.errors : [err.message]);
      showDanger(ContactMessages.saveFailed, err);
    },
  });

  function handleSubmit(values: Values) {
    const payload = { ...values, password: values.username.trim() ? values.password : '' };
    const schema = isEdit ? contactUpdateSchemaFor(contact.data?.hasPassword ?? false) : ContactCreateSchema;
    const checked = checkWith(schema, payload);
    form.setErrors(checked.fieldErrors);
    setMessages(checked.messages);
    if (checked.data) save.mutate(payload);
  }

  if (isEdit && contact.isPending) return <Loader />;
  const hasUsername = form.values.username.trim() !== '';

  return (
    <>
      <PageTitle>{isEdit ? 'Contactpersoon bewerken' : 'Nieuwe contactpersoon'}</PageTitle>
      <Paper withBorder p="md" maw={800}>
        <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
          <Stack>
            <FormErrors messages={messages} />
            <PersonNameFields form={form} />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <GenderSelect form={form} />
              <TextInput label="E-mail" type="email" {...form.getInputProps('email')} />
              <TextInput label="Telefoonnummer" {...form.getInputProps('phoneNumber')} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Gebruikersnaam" autoComplete="off" {...form.getInputProps('username')} />
              {hasUsername && (
                <PasswordInput
                  label="Wachtwoord"
                  withAsterisk={!isEdit || !contact.data?.hasPassword}
                  autoComplete="new-password"
                  description={
                    isEdit && contact.data?.hasPassword
                      ? 'Laat leeg om het wachtwoord te behouden.'
                      : 'Minimaal 8 tekens, 1 hoofdletter en 1 cijfer.'
                  }
                  {...form.getInputProps('password')}
                />
              )}
            </SimpleGrid>
            <FormActions backTo={back} isSaving={save.isPending} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
